// Command-line options that describe the breath, shared by `play` and `render`.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import LiveText
import Playback
import Preferences

struct BreathArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: "Breath pattern: 4-7-8, box, coherent, sigh, or in-hold-out[-holdout] seconds (e.g. 5-0-5); inhale and exhale 0.5...120 s, holds 0 or 0.1...120 s.",
            transform: BreathPattern.value)
    var pattern: BreathPattern?

    @Option(help: "AHAP, Meta/Lofelt .haptic or MPEG-I .hjif file to play instead of a breath pattern, the format by extension and content (alone: the breath options do not apply to it).")
    var ahap: String?

    @Option(parsing: .unconditional, help: "Number of breath cycles (1...100000; the session is at most 24 hours).",
            transform: OptionValue.int(1...100_000))
    var cycles: Int?

    @Option(parsing: .unconditional, help: "Session length in minutes (whole cycles), more than 0 and at most 1440, instead of --cycles.",
            transform: OptionValue.double(0...1440, above: true))
    var minutes: Double?

    @Option(parsing: .unconditional, help: "Breathing rate ramp FROM:TO breaths per minute across the session, each 1...30, e.g. 7:5.5.",
            transform: BreathRamp.value)
    var ramp: BreathRamp?

    @Flag(help: "Cue taps: soft at each inhale, lighter at each exhale, a fading three-tap at the end.")
    var cues = false

    @Flag(help: "Counted cue taps (implies --cues): one tap at each inhale, two at each exhale, told apart by count.")
    var countedTaps = false

    @Option(help: "What plays during holds: none (silence), ticks (a faint tap every second) or pulse (a soft faint swell every 1.5 s), so a hold is not taken for a dead device (default: none).",
            transform: HoldSignal.value)
    var hold: HoldSignal?

    @Option(parsing: .unconditional, help: "Strength: off, subtle, moderate, strong, or a number 0...1. Remembered: the default is the last one play was given, else strong.",
            transform: StrengthSetting.value)
    var strength: StrengthSetting?

    @Option(help: "Swell shape: linear (as Core Haptics plays curves), sine-in-out, smoothstep, cubic-in-out.",
            transform: Easing.value)
    var easing: Easing?

    /// The strength to use: the flag, else the one remembered from the last play, else strong; with a note
    /// when the remembered one is off (every frame zero) or the settings cannot be used.
    func chosenStrength() -> (strength: StrengthSetting, notes: [String]) {
        if let strength { return (strength, []) }
        let saved: String?
        do { saved = try PreferenceStore().lastStrength() } catch {
            return (.strong, ["\(error); using strong"])
        }
        guard let saved else { return (.strong, []) }
        guard let remembered = try? StrengthSetting.value(saved) else {
            return (.strong, ["the remembered strength '\(saved)' is not one motorbreath takes; using strong"])
        }
        return (remembered, remembered.level == 0 ? ["strength \(saved) (remembered; --strength moderate to change)"] : [])
    }

    /// Remembers an explicit --strength for next time (a note if it cannot be written).
    func rememberStrength() {
        guard let strength, ahap == nil else { return }
        do { try PreferenceStore().saveStrength(strength.text) } catch {
            Stderr.write("motorbreath: note: could not remember the strength: \(error)\n")
        }
    }

    /// The pattern's name for titles: the file, or the pattern text.
    var title: String { ahap ?? pattern?.name ?? "4-7-8" }

    func validate() throws {
        guard cycles == nil || minutes == nil else { throw ValidationError("use --cycles or --minutes, not both") }
        if ahap != nil {
            let given = [("--pattern", pattern != nil), ("--cycles", cycles != nil), ("--minutes", minutes != nil),
                         ("--ramp", ramp != nil), ("--cues", cues), ("--counted-taps", countedTaps), ("--hold", hold != nil),
                         ("--strength", strength != nil), ("--easing", easing != nil)]
                .filter(\.1).map(\.0)
            guard given.isEmpty else {
                throw ValidationError("--ahap plays the file as it is: \(OptionValue.list(given)) \(given.count == 1 ? "does" : "do") not apply to it")
            }
        }
    }

    /// The pattern to play and how long it lasts, or a one-line error.
    func build() throws -> BuiltBreath {
        if let path = ahap {
            do {
                let imported = try PatternFile(path: path)
                return (imported.pattern, imported.pattern.duration, nil, imported.notices)
            } catch {
                throw fail(error)
            }
        }
        var options = BreathOptions()
        var notices: [String] = []
        do {
            let breath = try pattern ?? BreathPattern.parse("4-7-8")
            if let c = cycles { options.length = .cycles(c) }
            if let m = minutes { options.length = .minutes(m) }
            options.rampBPM = ramp?.bpm
            let chosen = chosenStrength()
            notices += chosen.notes
            options.strength = chosen.strength.level
            options.easing = easing ?? .linear
            options.cues = cues || countedTaps
            options.countedTaps = countedTaps
            options.holdSignal = hold ?? .none
            if let c = cycles, let reason = options.tooLong(cycles: c, of: breath) { throw fail(reason) }
            let plan = BreathPlan(pattern: breath, options: options)
            return (plan.haptics, plan.duration, plan, notices)
        } catch let error as PatternError {
            throw fail(error)
        }
    }
}

/// What play and render play: the haptic pattern and its length, the breath plan it came from (nil for an
/// AHAP or .haptic file), and the notes of the import.
typealias BuiltBreath = (pattern: HapticPattern, duration: Double, plan: BreathPlan?, notices: [String])

/// What the playback layer plays of `built`: the breath plan (repeated with `loop`), or the file's pattern.
func playbackContent(_ built: BuiltBreath, loop: Bool) -> PlaybackContent {
    if let plan = built.plan { return .breath(plan, loop: loop) }
    return .haptics(built.pattern, duration: built.duration)
}

/// Prints the first notes of a pattern file's import, one line each, and how many more there were.
func printNotices(_ notices: [String], limit: Int = 10) {
    for n in notices.prefix(limit) { Stderr.write("motorbreath: note: \(oneLine(n))\n") }
    if notices.count > limit { Stderr.write("motorbreath: note: \(notices.count - limit) more notes like these\n") }
}
