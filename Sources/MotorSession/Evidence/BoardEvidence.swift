// The evidence part of a `Player`: what the board reported of the stream (STATUS counters, PLAYED
// blocks judged against the frames the host meant), summed over every stream of the session.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// The board's reports, judged: frames played, lost, late, out of order or unreported; duty CRC
/// mismatches and wrong duties; the board's counters; the first frame's start error.
struct BoardEvidence {
    var counters = BoardCounters()
    var dutyCheck = DutyCheck()
    /// How late the board output its frames (each PLAYED block's latest), µs.
    var lateness = PercentileSketch()
    var framesPlayed = 0
    var framesLost = 0
    var playedLate = 0
    var dutyMismatches = 0
    var outOfOrder = 0
    var unreported = 0
    var naks = 0
    var failsafeTrips = 0
    /// Both sides' CRC errors as of the last STATUS (the board's counter and the host's undecodable frames).
    var crcErrors = 0
    var startErrorUs: Double?
    /// When the last PLAYED report arrived (host ns).
    var lastPlayedNs: UInt64 = 0
    /// Board clock ticks per second.
    var clockHz: UInt32
    let rate: Int

    init(clockHz: UInt32, rate: Int) {
        self.clockHz = clockHz
        self.rate = rate
    }

    func ticksToUs(_ ticks: Int64) -> Double { Double(ticks) * 1e6 / Double(clockHz) }

    /// A STATUS of the current stream (`wireBase`: its session index of wire 0); `hostBadCRC` is the
    /// host's count of frames it could not decode.
    mutating func status(_ s: Status, wireBase: Int, hostBadCRC: Int) {
        counters.update(s)
        if s.state == .armed || s.state == .playing {
            dutyCheck.status(nextPlay: wireBase + Int(s.nextPlay), underruns: Int(s.underruns))
        }
        crcErrors = counters.crcErrors + hostBadCRC
    }

    /// A PLAYED block starting at session frame `first`, of which `count` frames are within the breath;
    /// `playedThrough` is where the PLAYED reports had come to before it, `expected` the frames the host
    /// meant for the whole block.
    mutating func played(_ p: Played, first: Int, count: Int, playedThrough: Int, expected: [UInt16]) {
        if first < playedThrough { outOfOrder += 1 }
        if first > playedThrough { unreported += first - playedThrough }
        framesPlayed += count
        playedLate += Int(p.lateCount)
        lateness.add(ticksToUs(Int64(p.maxLateTicks)))
        // Frames not played as scheduled: the late ones (when any was output more than half a period after
        // its tick: a retime's tick of jitter is not a loss), and where the duties differ from the schedule
        // the shortest run of underrun zeros that explains it (the whole block when none does).
        let halfPeriodTicks = UInt64(clockHz) / UInt64(2 * rate)
        var lost = UInt64(p.maxLateTicks) > halfPeriodTicks ? Int(p.lateCount) : 0
        let mismatch = p.dutyCRC != dutyCRC(expected)
        if mismatch { lost += DutyCheck.underrunRun(crc: p.dutyCRC, expected: expected) ?? count }
        framesLost += min(count, lost)
        if mismatch {
            dutyMismatches += 1
            dutyCheck.mismatch(first: first, count: Int(p.count), crc: p.dutyCRC, expected: expected)
        }
    }

    /// The board's stream is over (it will be prepared afresh): its counters start again.
    mutating func endStream() {
        counters.endStream()
        dutyCheck.restart()
    }

    /// Frames a reconnect skipped over: lost.
    mutating func skipped(_ n: Int) { framesLost += n }
}
