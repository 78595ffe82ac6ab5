// Today's duty frames, pinned: hashes of every raw frame for presets, options, motors and resolutions,
// recorded from the renderer before the sweep rewrite (issue 11), so the rewrite keeps every result.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import TestSupport
import Testing

enum Golden {
    /// FNV-1a over the raw duty values.
    static func hash(_ frames: [UInt16]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for f in frames {
            h = (h ^ UInt64(f & 0xFF)) &* 0x100_0000_01b3
            h = (h ^ UInt64(f >> 8)) &* 0x100_0000_01b3
        }
        return h
    }

    struct Case: CustomStringConvertible {
        var name: String
        var pattern: HapticPattern
        var duration: Double
        var rate: Int
        var resolution: DutyResolution
        var motor: MotorProfile
        var compensate: Bool
        var warmup: Double
        var description: String { name }

        func frames(limit: Int) -> [UInt16] {
            var r = FrameRenderer(pattern: pattern, duration: duration, frameRate: rate, resolution: resolution,
                                  motor: motor, compensate: compensate, warmup: warmup)
            var out: [UInt16] = []
            r.render(count: limit, into: &out)
            return out
        }
    }

    /// Breath plans (curves whose first point sits at their Time) and random AHAP-like patterns with
    /// overlapping events, attack and release, curves starting at their first point, and taps apart.
    static var cases: [Case] {
        var out: [Case] = []
        let motors: [(String, MotorProfile, DutyResolution)] = [("erm-u8", .referenceERM, .u8), ("erm-i16", .referenceERM, .i16),
                                                               ("lra-u8", .referenceLRA, .u8)]
        for name in ["4-7-8", "box", "coherent", "sigh", "2-1-3-1"] {
            for variant in 0..<4 {
                var o = BreathOptions()
                switch variant {
                case 1: o.cues = true; o.strength = 0.6; o.easing = .sineInOut
                case 2: o.length = .cycles(3); o.rampBPM = (7, 5.5); o.easing = .smoothstep
                case 3: o.length = .minutes(1); o.cues = true; o.strength = 0.3
                default: break
                }
                let plan = BreathPlan(pattern: try! BreathPattern.parse(name), options: o)
                for (m, motor, res) in motors {
                    for (rate, comp, warm) in [(250, true, 0.0), (1000, true, 0.3), (50, false, 0.0)] {
                        out.append(Case(name: "\(name)/\(variant)/\(m)/\(rate)/\(comp)/\(warm)", pattern: plan.haptics, duration: plan.duration,
                                        rate: rate, resolution: res, motor: motor, compensate: comp, warmup: warm))
                    }
                }
            }
        }
        var rng = SplitMix(seed: 11)
        for k in 0..<12 {
            var events: [HapticEvent] = []
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                events.append(HapticEvent(kind: .continuous(duration: .random(in: 0.1...3, using: &rng)), time: .random(in: 0...6, using: &rng),
                                          intensity: .random(in: 0...1, using: &rng), attack: Bool.random(using: &rng) ? .random(in: 0...1, using: &rng) : 0,
                                          release: Bool.random(using: &rng) ? .random(in: 0...1, using: &rng) : 0))
            }
            for i in 0..<Int.random(in: 0...3, using: &rng) {
                events.append(.transient(at: Double(i) * 2.5 + .random(in: 0...0.5, using: &rng), intensity: .random(in: 0...1, using: &rng),
                                         sharpness: .random(in: 0...1, using: &rng)))
            }
            var curves: [ParameterCurve] = []
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                var points = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                    ControlPoint(time: .random(in: 0.01...3, using: &rng), value: .random(in: -0.2...1.2, using: &rng),
                                 easing: Easing.allCases.randomElement(using: &rng)!)
                }
                points.append(ControlPoint(time: 0, value: .random(in: 0...1, using: &rng)))
                let parameter: DynamicParameter = Bool.random(using: &rng) ? .intensityControl : .sharpnessControl
                curves.append(ParameterCurve(parameter: parameter, time: .random(in: 0...5, using: &rng), points: points))
            }
            let p = HapticPattern(events: events, curves: curves)
            for (m, motor, res) in motors {
                out.append(Case(name: "random\(k)/\(m)", pattern: p, duration: p.duration, rate: 250, resolution: res,
                                motor: motor, compensate: true, warmup: 0))
            }
        }
        return out
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct GoldenFramesTests {
    /// Every case renders the frames it rendered before; a pattern ending in a tap may now last a few frames
    /// longer (until the tap has been felt), never shorter. MOTORBREATH_PRINT_GOLDEN=1 prints a new table.
    /// The renderings run on a thread of their own (`offPool`), not on the test pool.
    @Test func framesAreTodays() async throws {
        let record = ProcessInfo.processInfo.environment["MOTORBREATH_PRINT_GOLDEN"] != nil
        let (lines, failures) = try await offPool { () -> ([String], [String]) in
            var lines: [String] = [], failures: [String] = []
            let cases = Golden.cases
            if cases.count != goldenTable.count { failures.append("\(cases.count) cases, \(goldenTable.count) in the table") }
            for c in cases {
                let frames = c.frames(limit: 1_000_000)
                lines.append("\"\(c.name)\": (\(frames.count), 0x\(String(Golden.hash(frames), radix: 16))),")
                guard let old = goldenTable[c.name] else {
                    failures.append("\(c.name): not in the table")
                    continue
                }
                let tapTail = Int((0.04 * Double(c.rate)).rounded(.up))
                if frames.count < old.count || frames.count > old.count + tapTail {
                    failures.append("\(c.name): \(frames.count) frames, was \(old.count)")
                }
                if Golden.hash(Array(frames.prefix(old.count))) != old.hash { failures.append("\(c.name): frames differ") }
            }
            return (lines, failures)
        }
        for f in failures { Issue.record(Comment(rawValue: f)) }
        #expect(failures.isEmpty)
        if record { print(lines.joined(separator: "\n")) }
    }
}
