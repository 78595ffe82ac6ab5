// Accumulates what was output for a run of frames, to be reported in a PLAYED message.
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

/// Running totals for one PLAYED report.
struct PlayedTally {
    var firstIndex: UInt32 = 0
    var count: UInt16 = 0
    var lateCount: UInt16 = 0
    var maxLateTicks: UInt32 = 0
    var crc = CRC16()
    var firstTick: UInt64 = 0

    mutating func add(index: UInt32, raw: UInt16, dueTick: UInt64, outputTick: UInt64) {
        if count == 0 {
            firstIndex = index
            firstTick = outputTick
        }
        count += 1
        let late = outputTick - dueTick
        if late > 0 {
            lateCount &+= 1
            maxLateTicks = max(maxLateTicks, UInt32(clamping: late))
        }
        crc.update(le16: raw)
    }

    /// The report so far, and a fresh tally; nil when nothing was played.
    mutating func take() -> Played? {
        guard count > 0 else { return nil }
        let report = Played(firstIndex: firstIndex, count: count, lateCount: lateCount,
                            maxLateTicks: maxLateTicks, dutyCRC: crc.value, firstTick: firstTick)
        self = PlayedTally()
        return report
    }
}
