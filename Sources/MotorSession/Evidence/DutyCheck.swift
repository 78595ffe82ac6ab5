// Telling a PLAYED block whose duties differ from what was sent because frames underran (they play as
// 0) from one where a value the host never sent reached the motor. The board's STATUS carries its
// underrun count and next frame to play: if the count did not move while a block played, its frames all
// had data, and a CRC mismatch means a wrong value reached the motor.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

struct DutyCheck {
    /// (session index of the board's next frame to play, its underrun count then), oldest first.
    private var checkpoints: [(nextPlay: Int, underruns: Int)] = []
    /// Mismatched blocks [first, end) waiting for a STATUS that shows the board past their end.
    private var pending: [(first: Int, end: Int)] = []
    /// Blocks judged so far.
    private(set) var wrong = 0

    /// A STATUS for the current stream, in session indices.
    mutating func status(nextPlay: Int, underruns: Int) {
        if let last = checkpoints.last, last.nextPlay > nextPlay { return }  // reordered: keep it monotonic
        checkpoints.append((nextPlay, underruns))
        if checkpoints.count > 512 { checkpoints.removeFirst(256) }
        resolve()
    }

    /// A PLAYED block whose duty CRC did not match: judged once the board's count after it is known. A
    /// mismatch that one run of zeros explains is an underrun whatever the counters say.
    mutating func mismatch(first: Int, count: Int, crc: UInt16, expected: [UInt16]) {
        if DutyCheck.underrunRun(crc: crc, expected: expected) != nil { return }
        pending.append((first, first + count))
        resolve()
    }

    /// A new stream (after a reconnect): the board's counters start again.
    mutating func restart() {
        checkpoints.removeAll()
        pending.removeAll()
    }

    private mutating func resolve() {
        guard let latest = checkpoints.last else { return }
        pending.removeAll { block in
            guard latest.nextPlay >= block.end else { return false }
            // The count before the block started and after it ended: unchanged means no underrun in it.
            guard let before = checkpoints.last(where: { $0.nextPlay <= block.first }),
                  let after = checkpoints.first(where: { $0.nextPlay >= block.end }) else { return true }
            if before.underruns == after.underruns { wrong += 1 }
            return true
        }
    }

    /// The length of the shortest run of consecutive frames that, replaced by 0, gives `crc` from
    /// `expected` (a lost FRAMES message leaves a run of frames missing); nil when no one run explains it.
    static func underrunRun(crc: UInt16, expected: [UInt16]) -> Int? {
        guard !expected.isEmpty else { return nil }
        var values = expected
        for length in 1...values.count {
            for start in 0...(values.count - length) {
                for i in start..<(start + length) { values[i] = 0 }
                if CRC16.ofDuties(values) == crc { return length }
                for i in start..<(start + length) { values[i] = expected[i] }
            }
        }
        return nil
    }
}
