// A breath travelling along two boards as a user runs it: two `sim-board` processes on pseudo-terminals,
// `motorbreath --board left=A --board right=B --spread rise --actuator right:at=0.5`, judged from both
// drive logs on the machine's monotonic clock through the reference ERM: the right board's inhale is felt
// half a second after the left's (2 s inhale, half of it the travel, half of that to 0.5), its exhale 0.75 s
// before (3 s exhale).
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import TestSupport
import Testing
import TimingBench

@Suite(.tags(.realTime), .timeLimit(.minutes(3))) struct SpreadProcessTests {
    @Test func theRightBoardsInhaleIsTheLeftsHalfASecondLater() throws {
        let pair = try TwoSimBoards()
        defer { pair.kill() }
        let a = pair.left, b = pair.right
        let result = try runMotorbreath(["--pattern", "2-1-3", "--cycles", "1", "--json", "--quiet", "--board", "left=\(a.ptyPath)",
                                         "--board", "right=\(b.ptyPath)", "--spread", "rise", "--actuator", "right:at=0.5"], timeout: 60)
        let first = a.stop(), second = b.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let report = try jsonObject(result.stdout)
        #expect(report["spread"] as? String == "rise:0.5")
        #expect((report["boards"] as? [[String: Any]])?.map { $0["at"] as? Double } == [0, 0.5])
        // Each board's drive on the machine's clock through the reference ERM: the instants its felt
        // amplitude crosses half strength, up in the inhale's ramp, down as the hold silences it, up as the
        // exhale starts at full, down in the exhale's ramp.
        let l = first.feltCrossings, r = second.feltCrossings
        #expect(l.count == 4 && r.count == 4 && zip(l, r).allSatisfy { $0.up == $1.up }, "crossings \(l.map(\.up)) and \(r.map(\.up))")
        guard l.count == 4 && r.count == 4 else { return }
        let apart = zip(l, r).map { (Double($1.ns) - Double($0.ns)) / 1e6 }
        print("spread rise on two sim-board processes, right at 0.5: right minus left at half strength: inhale \(apart[0]) ms, hold \(apart[1]) ms, exhale start \(apart[2]) ms, exhale \(apart[3]) ms")
        // Inhale: the right board's 1 s ramp starts 0.5 s later; the hold and the exhale's start together;
        // exhale: the right board's 1.5 s ramp starts 0.75 s in, the left's 1.5 s in.
        let want = [500.0, 0, 0, -750]
        let worst = zip(apart, want).map { abs($0 - $1) }.max() ?? .infinity
        // (2 ms: one crossing each, on a machine that may be loaded; the drive skew is judged in InStepProcessTests)
        #expect(worst <= 2, "offsets \(apart) ms, the layout's \(want)")
    }
}
