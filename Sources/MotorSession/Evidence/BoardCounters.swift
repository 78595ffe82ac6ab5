// The board's counters (underruns, late frames, CRC errors) summed over every stream of a session: a
// re-prepare zeroes the board's stream counters, and its error counters count since it booted.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

struct BoardCounters {
    private var done = (underruns: 0, late: 0, crc: 0)
    private var current = (underruns: 0, late: 0, crc: 0)
    private var crcAtStart: UInt16?

    /// Takes in the board's latest STATUS for the current stream.
    mutating func update(_ s: Status) {
        if crcAtStart == nil { crcAtStart = s.rxCRCErrors }
        current = (Int(s.underruns), Int(s.lateFrames), Int(s.rxCRCErrors &- (crcAtStart ?? 0)))
    }

    /// The current stream is over (the board will be configured afresh).
    mutating func endStream() {
        done = (done.underruns + current.underruns, done.late + current.late, done.crc + current.crc)
        current = (0, 0, 0)
        crcAtStart = nil
    }

    var underruns: Int { done.underruns + current.underruns }
    var lateFrames: Int { done.late + current.late }
    var crcErrors: Int { done.crc + current.crc }
}
