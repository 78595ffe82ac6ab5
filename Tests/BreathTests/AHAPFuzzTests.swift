// AHAP fuzz: mutated files (values, keys, types, repeats, bytes) read and rendered without a crash, a hang
// over 10 s (reading, compiling and rendering one file, in the debug build) or unbounded memory; what is
// read stays within 24 h and exports and reads back the same.
// MOTORBREATH_FUZZ_FILES (default 3000 a run; a new random seed each run, so the runs add up) and
// MOTORBREATH_FUZZ_SEED (default random) set the run; the seed is
// printed at the start and with every failure.
// SPDX-License-Identifier: Apache-2.0

@testable import Breath
import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.tags(.fast), .serialized, .timeLimit(.minutes(30))) struct AHAPFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let files = Int(environment["MOTORBREATH_FUZZ_FILES"] ?? "") ?? 3_000
    /// Frames rendered per file at most (a 24-hour pattern at 1000 Hz is 86 million; the first 50k show
    /// the renderer works on it, the time/memory table covers full lengths).
    static let frameCap = 50_000

    static let interestingNumbers: [Double] = [0, -0.0, -1, 1e-300, Double.leastNonzeroMagnitude, 1e-9, 0.5, 1, 2, 30, 1e9, 86_399.5, 86_400, 86_401,
                                               100_000, 1e308, -1e308, .greatestFiniteMagnitude, 0.015, 4, 19]
    static let keys = ["Version", "Pattern", "Event", "Parameter", "ParameterCurve", "Time", "EventType", "Type", "EventDuration",
                       "EventParameters", "Parameters", "ParameterID", "ParameterValue", "ParameterCurveControlPoints", "Easing"]
    static let strings = ["HapticTransient", "HapticContinuous", "AudioCustom", "AudioContinuous", "HapticIntensity", "HapticSharpness",
                          "AttackTime", "DecayTime", "ReleaseTime", "Sustained", "HapticIntensityControl", "HapticSharpnessControl",
                          "HapticAttackTimeControl", "linear", "sine-in-out", "smoothstep", "cubic-in-out", "bouncy", ""]

    /// Valid files to start from: the fixtures, exported breath plans, and a pattern using every feature.
    static func corpus() throws -> [Data] {
        var out = [try Data(contentsOf: fixtures.appendingPathComponent("4-7-8.ahap")),
                   try Data(contentsOf: fixtures.appendingPathComponent("4-7-8-article.ahap"))]
        var o = BreathOptions()
        o.cues = true
        o.easing = .sineInOut
        out.append(AHAPExport.data(BreathPlan(pattern: try BreathPattern.parse("sigh"), options: o).haptics))
        let everything = """
        {"Version": 1, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.7},
                                                                                   {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}]}},
          {"Event": {"Time": 0.1, "Type": "HapticContinuous", "EventDuration": 2,
                     "Parameters": [{"ParameterID": "AttackTime", "ParameterValue": 0.5}, {"ParameterID": "ReleaseTime", "ParameterValue": 1.0},
                                    {"ParameterID": "HapticIntensity", "ParameterValue": 0.9}]}},
          {"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": []}},
          {"Event": {"Time": 1, "EventType": "AudioCustom", "EventWaveformPath": "x.wav"}},
          {"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 0.2, "ParameterValue": 0.4}},
          {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 1.5, "ParameterValue": 0.5}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0,
                              "ParameterCurveControlPoints": [{"Time": 0.3, "ParameterValue": 0.2, "Easing": "smoothstep"},
                                                              {"Time": 1.2, "ParameterValue": 1}, {"Time": 2.5, "ParameterValue": 0}]}},
          {"Event": {"Time": 2.55, "EventType": "HapticTransient"}}
        ]}
        """
        out.append(Data(everything.utf8))
        return out
    }

    /// One to four mutations of the parsed tree, then (sometimes) of the bytes.
    static func mutate(_ seed: Any, _ rng: inout SplitMix) -> Data {
        var tree = seed
        for _ in 0..<Int.random(in: 1...4, using: &rng) { tree = mutateTree(tree, &rng, depth: 0) }
        var bytes = [UInt8]((try? JSONSerialization.data(withJSONObject: tree, options: [.fragmentsAllowed])) ?? Data("{}".utf8))
        if Int.random(in: 0..<4, using: &rng) == 0 {
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0...bytes.count, using: &rng)
                let byte = Bool.random(using: &rng) ? Array("{}[]:,\"0123456789.eE-+ ".utf8).randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                switch Int.random(in: 0...3, using: &rng) {
                case 0: bytes.insert(byte, at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                case 2: if at < bytes.count { bytes[at] = byte }
                default:
                    // A number no tree can hold.
                    bytes.insert(contentsOf: Array(["1e400", "NaN", "-Infinity", "1e-400", "123456789012345678901234567890"].randomElement(using: &rng)!.utf8), at: at)
                }
            }
        }
        return Data(bytes)
    }

    static func mutateTree(_ node: Any, _ rng: inout SplitMix, depth: Int) -> Any {
        if var dict = node as? [String: Any], !dict.isEmpty, Int.random(in: 0..<4, using: &rng) > 0 || depth == 0 {
            let key = dict.keys.sorted().randomElement(using: &rng)!
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: dict[key] = nil
            case 1: dict[keys.randomElement(using: &rng)!] = dict.removeValue(forKey: key)
            case 2: dict[keys.randomElement(using: &rng)!] = interestingNumbers.randomElement(using: &rng)!
            default: dict[key] = mutateTree(dict[key]!, &rng, depth: depth + 1)
            }
            return dict
        }
        if var list = node as? [Any], !list.isEmpty, Int.random(in: 0..<4, using: &rng) > 0 {
            let k = Int.random(in: 0..<list.count, using: &rng)
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: list.remove(at: k)
            case 1:
                // Repeats: usually a few, sometimes thousands (long lists of overlapping events or points).
                let count = Int.random(in: 0..<16, using: &rng) == 0 ? Int.random(in: 1000...3000, using: &rng) : Int.random(in: 1...40, using: &rng)
                list.append(contentsOf: Array(repeating: list[k], count: count))
            case 2: list.swapAt(k, Int.random(in: 0..<list.count, using: &rng))
            default: list[k] = mutateTree(list[k], &rng, depth: depth + 1)
            }
            return list
        }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0, 1, 2: return interestingNumbers.randomElement(using: &rng)!
        case 3: return Double.random(in: -10...100, using: &rng)
        case 4, 5: return strings.randomElement(using: &rng)!
        case 6: return [node]
        default: return ["Time": node]
        }
    }

    /// What one run found: counts, and a line per failed check (made on the worker thread, recorded by the test).
    struct Outcome: Sendable {
        var read = 0, refused = 0, frames = 0
        var slowest = Duration.zero
        var failures: [String] = []
    }

    /// The run happens on a thread of its own (`offPool`): a minute of fuzzing must not hold one of the
    /// test pool's two threads away from suites with short time limits.
    @Test func mutatedFilesNeverCrashHangOrGrow() async throws {
        let seed = UInt64(AHAPFuzzTests.environment["MOTORBREATH_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        print("AHAP fuzz: \(AHAPFuzzTests.files) files, seed \(seed) (MOTORBREATH_FUZZ_SEED=\(seed) repeats it)")
        let corpus = try AHAPFuzzTests.corpus()
        let o = try await offPool { try AHAPFuzzTests.run(seed: seed, corpus: corpus) }
        for f in o.failures.prefix(20) { Issue.record(Comment(rawValue: f)) }
        #expect(o.failures.isEmpty, "\(o.failures.count) failed checks, seed \(seed)")
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peakMB = usage.ru_maxrss / 1024
        print("AHAP fuzz: \(o.read) read, \(o.refused) refused, \(o.frames) frames, slowest file \(o.slowest), peak RSS \(peakMB) MB")
        #expect(o.read > AHAPFuzzTests.files / 10 && o.refused > AHAPFuzzTests.files / 10)  // both paths are exercised
        #expect(peakMB < 2048, "seed \(seed): peak RSS \(peakMB) MB")
    }

    static func run(seed: UInt64, corpus data: [Data]) throws -> Outcome {
        var rng = SplitMix(seed: seed)
        let corpus = try data.map { try JSONSerialization.jsonObject(with: $0) }
        var o = Outcome()
        // Mostly 250 Hz; one file in ten at 1000 Hz, where planning the leads costs 16 times more.
        let motors: [(MotorProfile, DutyResolution, Int)] = Array(repeating: (.referenceERM, .i16, 250), count: 4)
            + Array(repeating: (.referenceLRA, .u8, 250), count: 3) + [(.referenceERM, .u8, 50), (.referenceERM, .u16, 50), (.referenceLRA, .i16, 1000)]
        for index in 0..<AHAPFuzzTests.files {
            let data = AHAPFuzzTests.mutate(corpus.randomElement(using: &rng)!, &rng)
            let (motor, resolution, rate) = motors.randomElement(using: &rng)!
            let clock = ContinuousClock()
            let started = clock.now
            func check(_ ok: Bool, _ what: String) {
                if !ok { o.failures.append("seed \(seed), file \(index): \(what)") }
            }
            guard let imported = try? AHAPImport(data: data) else {
                o.refused += 1
                continue
            }
            o.read += 1
            let p = imported.pattern
            check(p.duration.isFinite && p.duration <= HapticPattern.longestSeconds, "duration \(p.duration)")
            var r = FrameRenderer(pattern: p, frameRate: rate, resolution: resolution, motor: motor, warmup: 0.3)
            // Memory bounded by the input: spans, segments and lead steps grow with the events and points.
            let points = p.curves.reduce(0) { $0 + $1.points.count }
            check(r.envelope.events.spans.count <= 8 * p.events.count + 8, "\(r.envelope.events.spans.count) spans")
            check(r.envelope.control.segments.count <= points, "\(r.envelope.control.segments.count) segments")
            check(r.steps.count <= 2 * (r.envelope.events.spans.count + points + p.events.count) + 2, "\(r.steps.count) steps")
            check(r.frameCount <= Int(HapticPattern.longestSeconds * Double(rate)) + r.warmupFrames + 1, "\(r.frameCount) frames")
            let detailed = r.renderDetailed(count: 4096)
            check(detailed.allSatisfy { (0...1).contains($0.intensity) && (-1...1).contains($0.drive) && $0.felt.isFinite }, "a frame out of range")
            var raw: [UInt16] = []
            while r.position < min(r.frameCount, AHAPFuzzTests.frameCap) {
                raw.removeAll(keepingCapacity: true)
                r.render(count: 65_536, into: &raw)
            }
            o.frames += r.position
            let took = clock.now - started
            o.slowest = max(o.slowest, took)
            check(took < .seconds(10), "took \(took)")
            // What was read exports and reads back the same (curves over 16 points come back chained).
            if let back = try? AHAPImport(data: AHAPExport.data(p)).pattern {
                if p.curves.allSatisfy({ $0.points.count <= AHAPExport.maxPointsPerCurve }) {
                    check(back == p, "export and import differ")
                }
            } else {
                check(false, "its own export cannot be read")
            }
        }
        return o
    }
}
