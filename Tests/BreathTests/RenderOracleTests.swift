// The fast render loop against the frozen per-frame reference (ReferenceRenderer): every raw frame equal,
// and the modeled motor's final amplitude to the bit, for the golden cases, ceilings, felt ranges, warm-ups
// and the AHAP fixtures, in random chunk sizes.
// SPDX-License-Identifier: Apache-2.0

@testable import Breath
import Foundation
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct RenderOracleTests {
    /// One setting to render both ways.
    struct Setting {
        var name: String
        var make: () -> FrameRenderer
    }

    static var settings: [Setting] {
        var out = Golden.cases.map { c in
            Setting(name: c.name, make: {
                FrameRenderer(pattern: c.pattern, duration: c.duration, frameRate: c.rate, resolution: c.resolution,
                              motor: c.motor, compensate: c.compensate, warmup: c.warmup)
            })
        }
        let ceiling = DriveCeiling(level: 0.6, overdriveSeconds: 0.05, recoverySeconds: 0.5)
        let range = FeltRange(floor: 0.2, ceiling: 0.7)
        let slow = MotorProfile.erm(ERMModel(riseTau: 0.100, fallTau: 0.100, startThreshold: 0.18))
        for name in ["4-7-8", "box", "4-0-4", "sigh"] {
            var o = BreathOptions()
            o.cues = true
            o.length = .cycles(2)
            let plan = BreathPlan(pattern: try! BreathPattern.parse(name), options: o)
            for res in DutyResolution.allCases {
                for (m, motor) in [("erm", MotorProfile.referenceERM), ("slow", slow), ("lra", .referenceLRA)] {
                    out.append(Setting(name: "\(name)/\(res)/\(m)/ceiling+range+warmup", make: {
                        FrameRenderer(plan: plan, frameRate: 250, resolution: res, motor: motor, warmup: 0.3, ceiling: ceiling,
                                      feltRange: range, warmupMargin: 1.2)
                    }))
                    out.append(Setting(name: "\(name)/\(res)/\(m)/uncompensated/500", make: {
                        FrameRenderer(plan: plan, frameRate: 500, resolution: res, motor: motor, compensate: false)
                    }))
                }
            }
        }
        for file in ["4-7-8.ahap", "4-7-8-article.ahap"] {
            let pattern = try! AHAPImport(path: fixtures.appendingPathComponent(file).path).pattern
            for res in DutyResolution.allCases {
                for (m, motor) in [("erm", MotorProfile.referenceERM), ("slow", slow), ("lra", .referenceLRA)] {
                    out.append(Setting(name: "\(file)/\(res)/\(m)", make: {
                        FrameRenderer(pattern: pattern, frameRate: 250, resolution: res, motor: motor, warmup: 0.2)
                    }))
                }
            }
        }
        return out
    }

    @Test func fastFramesEqualTheReferenceLoop() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("RenderOracleTests seed \(seed)")
        let failures = try await offPool { () -> [String] in
            var rng = SplitMix(seed: seed)
            var failures: [String] = []
            for s in Self.settings {
                var reference = ReferenceRenderer(s.make())
                let expected = reference.renderAll()
                var fast = s.make()
                var got: [UInt16] = []
                while fast.render(count: Int.random(in: 1...5000, using: &rng), into: &got) > 0 {}
                if got != expected {
                    let first = (0..<min(got.count, expected.count)).first { got[$0] != expected[$0] } ?? min(got.count, expected.count)
                    failures.append("\(s.name): \(got.count) frames, expected \(expected.count); first difference at frame \(first) (seed \(seed))")
                }
                // The modeled motor ends where the reference's does, to the bit (an ulp of drift that has not
                // changed a frame yet still fails).
                let amplitude = fast.shaper.erm?.amplitude ?? fast.shaper.lra!.amplitude
                let expectedAmplitude = reference.erm?.amplitude ?? reference.lra!.amplitude
                if amplitude.bitPattern != expectedAmplitude.bitPattern {
                    failures.append("\(s.name): motor amplitude \(amplitude) at the end, expected \(expectedAmplitude) (seed \(seed))")
                }
            }
            return failures
        }
        for f in failures { Issue.record(Comment(rawValue: f)) }
        #expect(failures.isEmpty)
    }
}
