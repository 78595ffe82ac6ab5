// .hjif fuzz: mutated MPEG-I haptics files (values, keys, types, repeats, bytes) read without a crash, each
// refused in one line or read into a pattern within 24 h that renders and whose own .hjif export reads back.
// MOTORBREATH_FUZZ_FILES (default 2000 a run) and MOTORBREATH_FUZZ_SEED (default random) set the run; the
// seed is printed at the start and with every failure.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import TestSupport
import Testing

@Suite(.tags(.fast), .serialized, .timeLimit(.minutes(10))) struct HJIFFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let files = (Int(environment["MOTORBREATH_FUZZ_FILES"] ?? "") ?? 3_000) * 2 / 3
    static let numbers: [Double] = [0, -1, 1, 0.5, 1e-300, 2, 65, 300, 999.5, 1000, 48_000, 48_001, 86_400_000, 4.2e9, 1e12, 1e308, -1e308]
    static let keys = ["version", "timescale", "perceptions", "perception_modality", "channels", "gain", "bands", "band_type", "curve_type",
                       "effects", "effect_type", "position", "keyframes", "relative_position", "amplitude_modulation", "frequency_modulation"]
    static let strings = ["2023", "2023-1", "2022", "Vibrotactile", "Force", "Transient", "Curve", "VectorialWave", "WaveletWave", "Cubic",
                          "Basis", "Reference", "Composite", ""]

    /// Valid files to start from: the hand-written swell, and exported breaths with taps.
    static func corpus() throws -> [Any] {
        var o = BreathOptions()
        o.cues = true
        o.holdSignal = .ticks
        o.length = .cycles(1)
        let texts = [HJIFImportTests.swell, HJIFExport.text(BreathPlan(pattern: try BreathPattern.parse("box"), options: o).haptics)]
        return try texts.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }

    /// One to four changes somewhere in the tree: a value replaced, a key removed or renamed, an element repeated.
    static func mutate(_ node: Any, _ rng: inout SplitMix64, depth: Int = 0) -> Any {
        if var object = node as? [String: Any], !object.isEmpty, depth < 12, rng.unit() < 0.85 {
            let key = object.keys.sorted().randomElement(using: &rng)!
            switch rng.next() % 8 {
            case 0: object[key] = nil
            case 1: object[keys.randomElement(using: &rng)!] = object.removeValue(forKey: key)
            case 2: object[key] = leaf(&rng)
            default: object[key] = mutate(object[key]!, &rng, depth: depth + 1)
            }
            return object
        }
        if var array = node as? [Any], !array.isEmpty, depth < 12, rng.unit() < 0.85 {
            let k = Int(rng.next() % UInt64(array.count))
            switch rng.next() % 6 {
            case 0: array.remove(at: k)
            case 1: array += Array(repeating: array[k], count: Int(rng.next() % 40))
            case 2: array.swapAt(k, Int(rng.next() % UInt64(array.count)))
            default: array[k] = mutate(array[k], &rng, depth: depth + 1)
            }
            return array
        }
        return leaf(&rng)
    }

    static func leaf(_ rng: inout SplitMix64) -> Any {
        switch rng.next() % 6 {
        case 0, 1: return numbers.randomElement(using: &rng)!
        case 2: return strings.randomElement(using: &rng)!
        case 3: return NSNull()
        case 4: return [Any]()
        default: return rng.uniform(-2...2)
        }
    }

    @Test func mutatedFilesAreOneLineOrPlay() throws {
        let seed = UInt64(Self.environment["MOTORBREATH_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        print(".hjif fuzz: \(Self.files) files, seed \(seed) (MOTORBREATH_FUZZ_SEED=\(seed) repeats it)")
        var rng = SplitMix64(seed: seed)
        let corpus = try Self.corpus()
        var read = 0, refused = 0
        for index in 0..<Self.files {
            var tree = corpus.randomElement(using: &rng)!
            for _ in 0...(rng.next() % 4) { tree = Self.mutate(tree, &rng) }
            var bytes = [UInt8](try JSONSerialization.data(withJSONObject: tree, options: [.fragmentsAllowed]))
            if rng.unit() < 0.2, !bytes.isEmpty {
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            do {
                let file = try PatternFile(data: Data(bytes), name: "fuzz.hjif")
                read += 1
                let p = file.pattern
                #expect(p.duration.isFinite && p.duration <= HapticPattern.longestSeconds, "seed \(seed), file \(index): \(p.duration) s")
                var r = FrameRenderer(pattern: p, frameRate: 250, motor: .referenceERM)
                let frames = r.renderDetailed(count: 5_000)
                #expect(frames.allSatisfy { (0...1).contains($0.intensity) && $0.felt.isFinite }, "seed \(seed), file \(index): a frame out of range")
                if p.duration < 600 {
                    let again = try? PatternFile(data: Data(HJIFExport.text(p).utf8), name: "again.hjif")
                    #expect(again != nil, "seed \(seed), file \(index): its own .hjif export cannot be read")
                }
            } catch {
                refused += 1
                let line = "\(error)"
                #expect(line.hasPrefix("bad ") && !line.contains("\n"), "seed \(seed), file \(index): \(line)")
            }
        }
        print(".hjif fuzz: \(read) read, \(refused) refused")
        #expect(read > Self.files / 20 && refused > Self.files / 20, "seed \(seed): \(read) read, \(refused) refused")
    }
}
