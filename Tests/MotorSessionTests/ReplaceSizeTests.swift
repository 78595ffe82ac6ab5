// The sizes of a live change's REPLACE messages (`ReplaceSizes`), over every frame a board may hold: the
// doubling once overflowed on a lossy line (issue 39's "arithmetic overflow" in `Player.applyChanges`).
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ReplaceSizeTests {
    /// A change's REPLACE messages over every frame the board holds: 8 frames, then twice as many, up to a
    /// whole message; they cover the frames exactly. On a lossy line (16 frames a message, the whole
    /// 1024-frame buffer kept filled) that is 64 messages: doubled on and on, the size overflowed at the
    /// 61st (issue 39's "arithmetic overflow" in `Player.applyChanges`).
    @Test(arguments: [(16, 1016), (16, 100_000), (1, 5_000), (50, 250), (200, 1_000), (117, 10_000), (Int.max, 3_000)])
    func theSizesDoubleUpToAMessageAndCoverTheFrames(perMessage: Int, frames: Int) {
        var sizes = ReplaceSizes(perMessage: perMessage)
        var left = frames, messages: [Int] = []
        while left > 0 {
            let n = sizes.next(left: left)
            #expect(n >= 1 && n <= max(1, perMessage) && n <= left)
            messages.append(n)
            left -= n
        }
        #expect(messages.reduce(0, +) == frames)
        #expect(messages.first == min(8, perMessage, frames))
        #expect(messages.count < 2 || messages[1] == min(16, perMessage, frames - messages[0]))
    }
}
