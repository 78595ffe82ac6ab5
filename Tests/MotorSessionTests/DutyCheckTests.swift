// The duty check on its own: which run of underrun zeros explains a PLAYED block's CRC (against a CRC
// written here from its definition, not the codec's), and when a mismatch is judged a wrong duty.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import Testing
import TestSupport

/// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over each value as 2 little-endian bytes, bit by bit.
func referenceCRC(_ values: [UInt16]) -> UInt16 {
    var crc: UInt16 = 0xFFFF
    for v in values {
        for byte in [UInt8(v & 0xFF), UInt8(v >> 8)] {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
    }
    return crc
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct DutyCheckTests {
    /// The reference agrees with the standard check value ("123456789" is not duties; this is the same
    /// polynomial over a known pair) and with the session's.
    @Test func theReferenceCRCIsTheSessions() {
        #expect(referenceCRC([]) == 0xFFFF)
        for values in [[0], [1, 2, 3], [255, 0, 255], [0x1234, 0xFFFF, 0x8000]] as [[UInt16]] {
            #expect(dutyCRC(values) == referenceCRC(values))
        }
    }

    static let block: [UInt16] = [10, 20, 30, 40, 50, 60, 70, 80]

    /// A block with frames [start, start + length) played as zeros: the shortest run that explains its
    /// CRC is found (a run over frames that were 0 anyway is shorter).
    @Test(arguments: [(0, 1), (3, 1), (7, 1), (0, 3), (2, 4), (5, 3), (0, 8)])
    func aRunOfZerosIsFound(start: Int, length: Int) {
        var played = Self.block
        for i in start..<(start + length) { played[i] = 0 }
        #expect(DutyCheck.underrunRun(crc: referenceCRC(played), expected: Self.block) == length)
    }

    /// Zeros already in the schedule: the run found is the shortest one.
    @Test func zerosInTheScheduleShortenTheRun() {
        let expected: [UInt16] = [10, 0, 0, 40]
        #expect(DutyCheck.underrunRun(crc: referenceCRC([10, 0, 0, 0]), expected: expected) == 1)
        #expect(DutyCheck.underrunRun(crc: referenceCRC([0, 0, 0, 40]), expected: expected) == 1)
        #expect(DutyCheck.underrunRun(crc: referenceCRC([0, 0, 0, 0]), expected: expected) == 4)
    }

    /// What no run of zeros explains: a value the host never sent, zeros in two places, an empty block.
    @Test(arguments: [
        [10, 20, 31, 40, 50, 60, 70, 80],
        [0, 20, 30, 40, 50, 60, 70, 0],
        [10, 20, 0, 40, 0, 60, 70, 80],
        [80, 70, 60, 50, 40, 30, 20, 10],
    ] as [[UInt16]])
    func noRunExplainsOtherValues(played: [UInt16]) {
        #expect(DutyCheck.underrunRun(crc: referenceCRC(played), expected: Self.block) == nil)
        #expect(DutyCheck.underrunRun(crc: 0, expected: []) == nil)
    }

    /// STATUS checkpoints (session index of the next frame to play, the board's underrun count) and one
    /// mismatched block [100, 150) whose CRC no run explains: wrong only if the count did not move across it,
    /// judged only once a STATUS shows the board past its end.
    @Test(arguments: [
        // (checkpoints before the mismatch, after it) -> wrong
        ([(90, 3)], [(160, 3)], 1),          // no underrun while it played: a wrong value reached the motor
        ([(90, 3)], [(160, 4)], 0),          // an underrun in it: explained
        ([(90, 3)], [(140, 3)], 0),          // not yet past its end: waiting
        ([(90, 3)], [(140, 3), (150, 3)], 1),
        ([(90, 3), (120, 3)], [(160, 3)], 1),
        ([], [(160, 3)], 0),                 // nothing known from before it: not judged
        ([(90, 3)], [(160, 3), (80, 9)], 1), // a reordered older STATUS is ignored
    ] as [([(Int, Int)], [(Int, Int)], Int)])
    func wrongOnlyWhenTheCountDidNotMove(before: [(Int, Int)], after: [(Int, Int)], wrong: Int) {
        var check = DutyCheck()
        for (next, underruns) in before { check.status(nextPlay: next, underruns: underruns) }
        let expected = (0..<50).map { UInt16(100 + $0) }
        var played = expected
        played[10] = 7  // a value never sent
        check.mismatch(first: 100, count: 50, crc: referenceCRC(played), expected: expected)
        for (next, underruns) in after { check.status(nextPlay: next, underruns: underruns) }
        #expect(check.wrong == wrong)
    }

    /// A mismatch a run of zeros explains is an underrun whatever the counters say; a restart forgets
    /// the blocks waiting (the board's counters start again).
    @Test func underrunsAndRestartsAreNeverWrong() {
        var check = DutyCheck()
        check.status(nextPlay: 90, underruns: 3)
        let expected = (0..<50).map { UInt16(100 + $0) }
        var zeros = expected
        zeros[20] = 0
        check.mismatch(first: 100, count: 50, crc: referenceCRC(zeros), expected: expected)
        var other = expected
        other[10] = 7
        check.mismatch(first: 200, count: 50, crc: referenceCRC(other), expected: expected)
        check.restart()
        check.status(nextPlay: 0, underruns: 0)
        check.status(nextPlay: 300, underruns: 0)
        #expect(check.wrong == 0)
    }
}
