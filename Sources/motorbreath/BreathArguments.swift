// Command-line options that describe the breath, shared by `play` and `render`.

import ArgumentParser
import Breath

struct BreathArguments: ParsableArguments {
    @Option(help: "Breath pattern: 4-7-8, box, coherent, sigh, or in-hold-out[-holdout] seconds (e.g. 5-0-5).")
    var pattern: String = "4-7-8"

    @Option(help: "AHAP file to play instead of a breath pattern.")
    var ahap: String?

    @Option(help: "Number of breath cycles.")
    var cycles: Int?

    @Option(help: "Session length in minutes (whole cycles), instead of --cycles.")
    var minutes: Double?

    @Option(help: "Breathing rate ramp FROM:TO breaths per minute across the session, e.g. 7:5.5.")
    var ramp: String?

    @Flag(help: "Cue taps: soft at each inhale, lighter at each exhale, a fading three-tap at the end.")
    var cues = false

    @Option(help: "Strength: off, subtle, moderate, strong, or a number 0...1.")
    var strength: String = "strong"

    @Option(help: "Swell shape: linear (as Core Haptics plays curves), sine-in-out, smoothstep, cubic-in-out.")
    var easing: String = "linear"

    /// The pattern to play and how long it lasts, or a one-line error.
    func build() throws -> (pattern: HapticPattern, duration: Double, plan: BreathPlan?, notices: [String]) {
        if let path = ahap {
            do {
                let imported = try AHAPImport(path: path)
                return (imported.pattern, imported.pattern.duration, nil, imported.notices)
            } catch {
                throw fail(error)
            }
        }
        guard cycles == nil || minutes == nil else { throw fail("use --cycles or --minutes, not both") }
        var options = BreathOptions()
        do {
            let breath = try BreathPattern.parse(pattern)
            if let c = cycles {
                guard (1...100_000).contains(c) else { throw fail("--cycles must be 1...100000") }
                options.length = .cycles(c)
            }
            if let m = minutes {
                guard m > 0 && m <= 24 * 60 else { throw fail("--minutes must be more than 0 and at most 1440") }
                options.length = .minutes(m)
            }
            if let r = ramp { options.rampBPM = try BreathOptions.parseRamp(r) }
            options.strength = try Strength.parse(strength)
            guard let e = Easing(rawValue: easing) else {
                throw fail("unknown easing '\(easing)' (\(Easing.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            options.easing = e
            options.cues = cues
            let plan = BreathPlan(pattern: breath, options: options)
            return (plan.haptics, plan.duration, plan, [])
        } catch let error as PatternError {
            throw fail(error)
        }
    }
}

/// `--motor erm|lra` with the reference physics.
func motorProfile(_ name: String) throws -> MotorProfile {
    switch name.lowercased() {
    case "erm": return .referenceERM
    case "lra": return .referenceLRA
    default: throw fail("unknown motor '\(name)' (use erm or lra)")
    }
}
