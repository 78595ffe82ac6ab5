// play's --all-or-nothing (several boards only) and the live line of several boards when one has ended
// for good (the others' line goes on without it).
// SPDX-License-Identifier: Apache-2.0

import Testing
@testable import motorbreath
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct AllOrNothingOptionTests {
    @Test func allOrNothingIsForSeveralBoards() {
        let one = parseLine("--port /dev/ttyUSB0 --all-or-nothing")
        #expect(one.status == usage && one.line == "motorbreath: --all-or-nothing is for several boards (--port or --board more than once)")
        #expect(parseLine("--board left=sim --board right=sim --all-or-nothing").status == 0)
    }

    @Test func aBoardThatEndedIsShownEndedAndTheNextBoardDrawsTheLine() {
        let view = SeveralView(names: ["left", "right"], quiet: true)
        view.ended(0)
        let right = SeveralView.Board(elapsed: 8.0, played: 2000, total: 4825, fill: 250, state: "playing")
        let left = SeveralView.Board(elapsed: 3.0, played: 700, total: 4825, fill: nil, state: "ended")
        #expect(SeveralView.text(names: ["left", "right"], [left, right]) == "8.0 s · left ended · right 2000/4825 buf 250")
    }
}
