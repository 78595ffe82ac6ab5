// Judging a stream at the pin. The board says, in its PLAYED reports, at which tick each frame took
// effect; the pin decides whether that is true and whether it was on time:
//
//  - Duty: every PWM period from frame i's tick to frame i+1's has frame i's duty (raw / 255 within one
//    of the 800 PWM steps), and where two neighbours differ the pin changes exactly at the reported tick.
//  - Time: the tick is the first PWM period start at or after the frame's due tick under a START that had
//    reached the board's UART by then (the record has every START with the cycle it arrived). A frame
//    after that is late, which is excused only after a re-time into the past (when the simulation stalled
//    behind the wall clock): the START in force arrived when the frame was already due, or the frame
//    before it was handed over under an older START and due later than this one now is. (After the
//    board reports a receive error, which STARTs it had is unknown: late frames are then excused too.)
//
// Board ticks are CPU cycles since Timer1 started, so all of this is cycle-exact.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

struct FramesAtPin {
    /// One PWM step: the firmware's duty resolution, and the tolerance for "this duty reached the pin".
    static let step = 1.0 / Double(PinRecord.period)
    /// Upper bound on the time from a START's last byte entering the UART to the board acting on it, and
    /// on how long overdue frames take to be caught up after a re-time into the past.
    static let handling: Int64 = 10 * 16_000  // 255 bytes queued in the firmware at 22 µs each, and more
    static let catchUp: Int64 = 50 * 16_000

    var frames = 0
    /// Frames whose duty was at the pin, in every PWM period from its tick to the next frame's.
    var reached = 0
    /// Frames whose span's end is unknown: the last of a stream the host stopped (STOP now, CONFIGURE),
    /// or followed by a frame whose report the board dropped.
    var unjudged = 0
    /// Frames without a PLAYED report (dropped by a board whose transmit ring a flooding host had filled).
    var unreported = 0
    /// Frames that took effect together with a later one at the same period (all late, after a re-time).
    var hidden = 0
    /// Frames output after their due tick because the START in force arrived after it.
    var lateAfterRetime = 0
    /// |pin duty - raw / 255| per frame (fractions of full drive).
    var dutyError: [Double] = []
    /// On-time frames whose change is visible at the pin: tick - due tick, and the pin's host time -
    /// the breath's intended host time, in microseconds.
    var dueErrorUs: [Double] = []
    var intendedErrorUs: [Double] = []
    var problems: [String] = []

    /// Underruns the board reported (PLAYED checksum of a 0 for a frame the host had sent): the pin must
    /// then show 0 for that frame.
    var underruns = 0

    /// - Parameters:
    ///   - high: pin high time in cycles per PWM period (PinRecord.highTimes)
    ///   - stream: what the host sent and the board reported (PLAYED for every frame: report_every 1)
    ///   - wallNs / intendedNs: host time of a board tick, and the host time frame i was meant for (nil:
    ///     not measured)
    init(high: [UInt16], stream: RecordedStream, wallNs: (Int64) -> Double?, intendedNs: ((Int) -> Double)?) {
        let p = Int64(PinRecord.period)
        var played: [Int: Int64] = [:], raws: [UInt16] = []
        var notes: [String] = []
        let count = (stream.played.map { Int($0.firstIndex) + Int($0.count) }.max() ?? 0)
        raws = [UInt16](repeating: 0, count: count)
        for r in stream.played {
            let i = Int(r.firstIndex)
            played[i] = Int64(bitPattern: r.firstTick)
            if r.count > 1 {  // the board could not send the reports in between: only the first tick is known
                for k in 0..<Int(r.count) where i + k < count { raws[i + k] = stream.frames[UInt32(i + k)] ?? 0 }
                continue
            }
            let sent = stream.frames[r.firstIndex]  // nil: never sent (an underrun, if the board says 0)
            if let sent, r.dutyCRC == CRC16.ofDuties([sent]) {
                raws[i] = sent
            } else if r.dutyCRC == CRC16.ofDuties([0]) {
                raws[i] = 0  // an underrun: the board output 0, as it must
                underruns += 1
            } else {
                notes.append("frame \(i): PLAYED checksum matches neither the value sent nor 0")
            }
        }
        let starts = stream.starts, end = stream.endTick
        self.problems = Array(notes.prefix(10))
        func duty(_ k: Int64) -> Double? { k >= 0 && k < high.count ? Double(high[Int(k)]) * Self.step : nil }
        func intended(_ i: Int) -> Double { Double(raws[i]) / 255 }
        func matches(_ k: Int64, _ i: Int) -> Bool { duty(k).map { abs($0 - intended(i)) <= Self.step + 1e-9 } ?? false }
        func note(_ s: String) { if problems.count < 10 { problems.append(s) } }
        frames = raws.count
        for i in 0..<raws.count {
            guard let t = played[i] else {
                unreported += 1  // its PLAYED did not fit the board's transmit ring (a flooding host)
                continue
            }
            guard t % p == 0 else {
                note("frame \(i): reported tick \(t) is not a PWM period start")
                continue
            }
            // Time: on time under some START that had arrived, or late because the START came late.
            let arrived = starts.indices.filter { starts[$0].tick < t - p }
            guard let latest = arrived.last else {
                note("frame \(i): took effect at \(t), before any START arrived")
                continue
            }
            let dues = arrived.map { Self.due(starts[$0].timebase, i) }
            if let due = dues.filter({ t >= $0 && t - $0 < p }).max() {
                if i > 0, let before = played[i - 1], before < t, abs(intended(i) - intended(i - 1)) > 2.5 * Self.step {
                    dueErrorUs.append(Double(t - due) / 16)
                    if let w = wallNs(t), let host = intendedNs { intendedErrorUs.append((w - host(i)) / 1000) }
                }
            } else {
                // Late. Frames take effect in order, so a frame handed over under an earlier START (with a
                // later due) holds back the next ones when a re-time moved them earlier; or the START
                // itself arrived when the frame was already due.
                let due = Self.due(starts[latest].timebase, i)
                let previous = i > 0 ? played[i - 1] ?? 0 : 0
                let heldBack = previous > due && t - previous < p
                let afterLoss = stream.firstRxErrorTick.map { t >= $0 } ?? false  // the STARTs it had are unknown
                if heldBack || afterLoss || (due < starts[latest].tick + Self.handling && t <= starts[latest].tick + Self.catchUp) {
                    lateAfterRetime += 1
                } else {
                    let recent = arrived.suffix(3).map { "arrived \(starts[$0].tick), due \(Self.due(starts[$0].timebase, i))" }
                    note("frame \(i): took effect at \(t); under the last STARTs that had arrived: \(recent)")
                    continue
                }
            }
            // Duty over the frame's span as reported.
            guard let next = i + 1 < raws.count ? played[i + 1] : end else {
                unjudged += 1  // the next frame's report is missing, or the host stopped the stream
                continue
            }
            guard next >= t else {
                note("frame \(i): the next frame's tick is before this one's")
                continue
            }
            if next == t {
                hidden += 1
                continue
            }
            var worst = 0.0, ok = true
            for k in (t / p)..<(next / p) {
                guard let v = duty(k) else { ok = false; break }
                worst = max(worst, abs(v - intended(i)))
                if !matches(k, i) { ok = false }
            }
            dutyError.append(worst)
            if ok { reached += 1 } else { note("frame \(i): raw \(raws[i]), pin duty off between \(t) and \(next)") }
        }
    }

    /// due(i) exactly as protocol.md section 3 defines it: anchor_tick + floor((int32)(i - anchor_index) x
    /// period_q32 / 2^32), clamped at 0. (MotorWire's Timebase.due rounds toward zero before the anchor,
    /// one tick later than this when the product has a fraction.)
    static func due(_ tb: Timebase, _ i: Int) -> Int64 {
        let k = Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: i) &- tb.anchorIndex))
        let product = UInt64(k.magnitude).multipliedFullWidth(by: tb.periodQ32)
        let whole = Int64(product.high << 32 | product.low >> 32)
        let fraction = product.low & 0xFFFF_FFFF != 0
        let offset = k >= 0 ? whole : -(whole + (fraction ? 1 : 0))
        return max(0, Int64(tb.anchorTick) + offset)
    }
}
