// The bookkeeping of live changes sent from the first frame the board may not yet have output: what each
// frame played, from the board's answer to each REPLACE (its next_play), worked out here by hand.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SupersededFramesTests {
    @Test func theBoardsAnswerSaysWhichFramesPlayedTheirOldValue() {
        var s = SupersededFrames()
        s.sent(seq: 7, first: 100, old: [1, 2, 3, 4], change: 0)
        // Before the answer, a PLAYED report was sent before the REPLACE arrived: all old.
        var v: [UInt16] = [9, 9, 9, 9, 9]
        s.patch(&v, first: 99)
        #expect(v == [9, 1, 2, 3, 4])
        let a = s.answered(seq: 7, nextPlay: 102)
        #expect(a.count == 1 && a[0].first == 100 && a[0].from == 102 && a[0].end == 104)
        #expect(s.tooLate == 2)
        v = [9, 9, 9, 9, 9]
        s.patch(&v, first: 99)
        #expect(v == [9, 1, 2, 9, 9])  // 100 and 101 were output before it came; 102 on took the new values
        s.forget(before: 102)
        v = [9, 9, 9]
        s.patch(&v, first: 100)
        #expect(v == [9, 9, 9])
    }

    @Test func twoChangesBothTooLateLeaveTheValueFromBeforeTheFirst() {
        var s = SupersededFrames()
        s.sent(seq: 1, first: 50, old: [10, 11], change: 0)  // change 0 replaced 10, 11 with, say, 20, 21
        s.sent(seq: 2, first: 50, old: [20, 21], change: 1)  // change 1 replaced those with 30, 31
        var v: [UInt16] = [30, 31]
        s.patch(&v, first: 50)
        #expect(v == [10, 11], "unanswered: the board still held what was there before the first")
        _ = s.answered(seq: 1, nextPlay: 51)
        _ = s.answered(seq: 2, nextPlay: 51)
        v = [30, 31]
        s.patch(&v, first: 50)
        #expect(v == [10, 31])
        #expect(s.tooLate == 2)
    }

    @Test func aBlockWhoseAnswerWasLostIsTakenAsAppliedWhole() {
        var s = SupersededFrames()
        s.sent(seq: 3, first: 10, old: [1, 1], change: 0)
        s.sent(seq: 4, first: 12, old: [2, 2], change: 0)
        let a = s.answered(seq: 4, nextPlay: 13)
        #expect(a.map(\.from) == [10, 13])
        #expect(s.waiting.isEmpty)
        var v: [UInt16] = [5, 5, 5, 5]
        s.patch(&v, first: 10)
        #expect(v == [5, 5, 2, 5])
        #expect(s.answered(seq: 3, nextPlay: 20).isEmpty, "already settled")
    }

    @Test func anAnswerNeverReceivedExpiresAsAppliedWhole() {
        var s = SupersededFrames()
        s.sent(seq: 1, first: 10, old: [1, 1], change: 0, now: 1_000)
        s.sent(seq: 2, first: 12, old: [2, 2], change: 0, now: 5_000)
        let lost = s.expire(sentBefore: 2_000)
        #expect(lost.count == 1 && lost[0].first == 10 && lost[0].from == 10)
        #expect(s.waiting.map(\.seq) == [2])
        var v: [UInt16] = [5, 5, 5, 5]
        s.patch(&v, first: 10)
        #expect(v == [5, 5, 2, 2], "the expired block is no longer taken as old; the waiting one still is")
    }
}
