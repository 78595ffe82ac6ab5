// Rendering within a motor's drive ceiling: the breath is scaled to the ceiling, overdrive runs stay
// inside the budget with the board's own rule (re-simulated here frame by frame, without the
// renderer's margin), and a ceiling at full drive changes nothing.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct CeilingRenderTests {
    static let erm60 = DriveCeiling(level: 0.6, overdriveSeconds: 0.05, recoverySeconds: 0.5)

    func render(_ pattern: String, resolution: DutyResolution, motor: MotorProfile = .referenceERM,
                ceiling: DriveCeiling?, rate: Int = 250) throws -> (frames: [RenderedFrame], raw: [UInt16]) {
        var r = FrameRenderer(plan: BreathPlan(pattern: try BreathPattern.parse(pattern)), frameRate: rate,
                              resolution: resolution, motor: motor, warmup: 0.3, ceiling: ceiling)
        let frames = r.renderDetailed(count: 1_000_000)
        return (frames, frames.map(\.raw))
    }

    /// The board's rule (protocol.md, LIMITS) on whole frames: spend above the ceiling, earn back at or
    /// below, lock out when spent. Returns the frames at which the board would have had to cut.
    func boardCuts(_ drives: [Double], ceiling: Double, overdrive: Double, recovery: Double, dt: Double) -> [Int] {
        var budget = overdrive, locked = false, cuts: [Int] = []
        for (i, d) in drives.enumerated() {
            if abs(d) > ceiling + 1e-12 {
                if locked || budget <= 0 { cuts.append(i); continue }
                budget -= dt
                if budget < -1e-12 { cuts.append(i) }
                if budget <= 1e-12 { locked = true }
            } else {
                budget = min(overdrive, budget + dt * overdrive / recovery)
                if budget >= overdrive - 1e-12 { locked = false }
            }
        }
        return cuts
    }

    @Test(arguments: [DutyResolution.u8, .i16])
    func anERMBreathStaysWithinTheCeilingRule(resolution: DutyResolution) throws {
        for pattern in ["4-7-8", "box", "4-0-4"] {
            let (frames, _) = try render(pattern, resolution: resolution, ceiling: Self.erm60)
            let drives = frames.map(\.drive)
            let cuts = boardCuts(drives, ceiling: 0.6, overdrive: 0.05, recovery: 0.5, dt: 1.0 / 250)
            #expect(cuts.isEmpty, "\(pattern) \(resolution): the board would cut frames \(cuts.prefix(10))")
            let over = drives.filter { abs($0) > 0.6 }.count
            print("\(pattern) \(resolution): \(over) of \(drives.count) frames overdriven, peak felt \(frames.map(\.felt).max()!)")
            // Held drive never above the ceiling: any frame above it is part of a run of at most 50 ms.
            var run = 0
            for d in drives {
                run = abs(d) > 0.6 ? run + 1 : 0
                #expect(run <= 12, "\(pattern): an overdrive run of \(run) frames")
            }
            // Scaled, not clipped: the peak felt is 60 % of the peak felt without a ceiling.
            let peak = frames.map(\.felt).max()!
            let unlimited = try render(pattern, resolution: resolution, ceiling: nil).frames.map(\.felt).max()!
            #expect(abs(peak / unlimited - 0.6) < 0.02, "\(pattern): peak felt \(peak), without a ceiling \(unlimited)")
        }
    }

    /// A ceiling at full drive with a budget never needed renders exactly what no ceiling renders.
    @Test func aCeilingAtFullDriveChangesNothing() throws {
        let open = DriveCeiling(level: 1, overdriveSeconds: 1, recoverySeconds: 1)
        for resolution in [DutyResolution.u8, .i16] {
            #expect(try render("4-7-8", resolution: resolution, ceiling: open).raw
                    == render("4-7-8", resolution: resolution, ceiling: nil).raw)
        }
    }

    /// With a budget already spent (a board reporting 0 ms available), nothing goes above the ceiling
    /// until the recovery time has passed.
    @Test func aSpentBudgetIsRespectedFromTheFirstFrame() throws {
        let spent = DriveCeiling(level: 0.6, overdriveSeconds: 0.05, recoverySeconds: 0.5, availableSeconds: 0)
        let (frames, _) = try render("4-0-4", resolution: .i16, ceiling: spent)
        let firstOver = frames.firstIndex { abs($0.drive) > 0.6 } ?? frames.count
        #expect(firstOver >= 125, "overdrive at frame \(firstOver), before 0.5 s of recovery")
    }

    /// The LRA at 40 %: the same rule, and its peak scaled to the ceiling (times its resonance gain).
    @Test func anLRABreathStaysWithinItsCeiling() throws {
        let lra40 = DriveCeiling(level: 0.4, overdriveSeconds: 0.02, recoverySeconds: 0.2)
        let (frames, _) = try render("4-7-8", resolution: .u8, motor: .referenceLRA, ceiling: lra40)
        let cuts = boardCuts(frames.map(\.drive), ceiling: 0.4, overdrive: 0.02, recovery: 0.2, dt: 1.0 / 250)
        #expect(cuts.isEmpty, "the board would cut frames \(cuts.prefix(10))")
        var run = 0
        for f in frames {
            run = abs(f.drive) > 0.4 ? run + 1 : 0
            #expect(run <= 5, "an overdrive run of \(run) frames")
        }
        let unlimited = try render("4-7-8", resolution: .u8, motor: .referenceLRA, ceiling: nil).frames.map(\.felt).max()!
        #expect(abs(frames.map(\.felt).max()! / unlimited - 0.4) < 0.02)
    }
}
