// The harness's record (hardware/avr/sim/record.h) read back: Timer1's start, every level change of
// OC1A/OC1B with its CPU cycle, the host's bytes entering the UART, and the cycle-to-wall-clock map.
// Board ticks are CPU cycles since Timer1 started, so the record speaks the board clock exactly.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire

struct PinRecord {
    /// CPU cycles per PWM period (ICR1 + 1) and per second.
    static let period: UInt64 = 800
    static let cyclesPerSecond = 16_000_000.0

    var timerStart: UInt64 = 0
    var edges: [Character: [(cycle: UInt64, level: UInt8)]] = ["A": [], "B": []]
    var rx: [(cycle: UInt64, bytes: [UInt8])] = []
    var tx: [(cycle: UInt64, bytes: [UInt8])] = []
    /// The cycle at which each `tx` frame's first byte left (same order as `tx`).
    var txFirst: [UInt64] = []
    var wall: [(cycle: UInt64, ns: UInt64)] = []
    var resets: [UInt64] = []
    /// Watchdog resets the harness's old-bootloader model turned into a boot loop (--old-bootloader).
    var bootLoops: [UInt64] = []
    /// Every Timer1 start: one per firmware start (power-up, restart, reset); `timerStart` is the last.
    var timerStarts: [UInt64] = []

    init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var fields: [Substring] = []
            var start = 0
            for i in 0..<raw.count where raw[i] == UInt8(ascii: "\n") {
                let line = String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<i]), as: UTF8.self)
                start = i + 1
                fields = line.split(separator: " ")
                parse(fields)
            }
        }
    }

    private mutating func parse(_ f: [Substring]) {
        guard f.count >= 2, let cycle = UInt64(f[1]) else { return }
        let value = f.count > 2 ? UInt64(f[2]) : nil
        switch f[0] {
        case "t1":
            timerStart = cycle
            timerStarts.append(cycle)
        case "pA": edges["A"]!.append((cycle, UInt8(value ?? 0)))
        case "pB": edges["B"]!.append((cycle, UInt8(value ?? 0)))
        case "rx" where f.count > 2: rx.append((cycle, hexBytes(f[2])))
        case "tx" where f.count > 2: tx.append((cycle, hexBytes(f[2])))
        case "t0": txFirst.append(cycle)
        case "w": wall.append((cycle, value ?? 0))
        case "reset": resets.append(cycle)
        case "bootloop": bootLoops.append(cycle)
        default: break
        }
    }

    /// Board tick of a cycle.
    func tick(_ cycle: UInt64) -> Int64 { Int64(cycle) - Int64(timerStart) }

    /// Cycles the pin was high in each PWM period k (BOTTOM at board tick 800 k), for k < `periods`.
    func highTimes(pin: Character, periods: Int) -> [UInt16] {
        var high = [UInt16](repeating: 0, count: periods)
        var riseTick: Int64?
        func addHigh(from a: Int64, to b: Int64) {
            var t = max(a, 0)
            while t < b {
                let k = Int(t / Int64(Self.period))
                guard k < periods else { return }
                let end = min(b, Int64(k + 1) * Int64(Self.period))
                high[k] += UInt16(end - t)
                t = end
            }
        }
        for e in edges[pin] ?? [] {
            let t = tick(e.cycle)
            if e.level == 1 { if riseTick == nil { riseTick = t } }
            else if let r = riseTick {
                addHigh(from: r, to: t)
                riseTick = nil
            }
        }
        if let r = riseTick { addHigh(from: r, to: Int64(periods) * Int64(Self.period)) }
        return high
    }

    /// Host CLOCK_MONOTONIC time (ns) at which the simulation reached `cycle`, interpolated.
    func wallNs(atCycle cycle: UInt64) -> Double? {
        guard wall.count >= 2 else { return nil }
        var lo = 1, hi = wall.count - 1  // first entry at or after `cycle` (the last one if none)
        while lo < hi {
            let mid = (lo + hi) / 2
            if wall[mid].cycle >= cycle { hi = mid } else { lo = mid + 1 }
        }
        let i = lo
        let a = wall[i - 1], b = wall[i]
        let f = (Double(cycle) - Double(a.cycle)) / Double(b.cycle - a.cycle)
        return Double(a.ns) + f * (Double(b.ns) - Double(a.ns))
    }

    /// CPU cycles simavr's UART takes per received byte at 500 kbaud (it counts 11 bits per byte).
    static let byteCycles: UInt64 = 352

    /// The host's messages, each with the cycle at which its last byte entered the board's UART and the
    /// cycle at which that byte reached the firmware: simavr hands over one byte every `byteCycles`,
    /// the first one `byteCycles` after it entered an empty receiver.
    func hostMessages() -> [(cycle: UInt64, delivered: UInt64, message: HostMessage, seq: UInt8)] {
        var decoder = FrameDecoder()
        var out: [(UInt64, UInt64, HostMessage, UInt8)] = []
        var delivered: UInt64 = 0
        for chunk in rx {
            for b in chunk.bytes {
                delivered = max(chunk.cycle, delivered) + Self.byteCycles
                guard case .packet(let p)? = decoder.push(b), let m = try? HostMessage(p) else { continue }
                out.append((chunk.cycle, delivered, m, p.seq))
            }
        }
        return out
    }

    /// The board's messages, each with the cycle at which its last byte was written to the UART.
    func boardMessages() -> [(cycle: UInt64, message: BoardMessage)] {
        var decoder = FrameDecoder()
        var out: [(UInt64, BoardMessage)] = []
        for frame in tx {
            for b in frame.bytes {
                guard case .packet(let p)? = decoder.push(b), let m = try? BoardMessage(p) else { continue }
                out.append((frame.cycle, m))
            }
        }
        return out
    }

    /// Last cycle at which bytes from the host entered the UART, before `cycle`.
    func lastRx(before cycle: UInt64 = .max) -> UInt64? { rx.last { $0.cycle < cycle }?.cycle }
}

/// One stream as the record shows it: from a CONFIGURE to the next (or the end of the record), what the
/// host sent and what the board reported, each with its cycle.
struct RecordedStream {
    /// Raw values by frame index, as the host last sent them.
    var frames: [UInt32: UInt16] = [:]
    /// STARTs with the board tick at which their last byte entered the UART.
    var starts: [(tick: Int64, timebase: Timebase)] = []
    /// The board's PLAYED reports.
    var played: [Played] = []
    /// The tick at which the board ended it by itself (deferred STOP, failsafe), from its unsolicited STATUS.
    var endTick: Int64?
    var endState: BoardState?
    /// The tick of the first STATUS showing a receive error in this stream (bytes lost or garbled on the
    /// way in: a message, maybe a START, never reached the board).
    var firstRxErrorTick: Int64?
    var rxErrorsAtStart: Int?
}

extension PinRecord {
    /// The streams in the record, in order (a host that re-prepares after a failsafe starts a new one).
    /// What the host sent belongs to the stream of the last CONFIGURE before it in the byte stream (the
    /// board handles messages in order); what the board sent, to the stream whose CONFIGURE it had
    /// answered before (its STATUS naming that CONFIGURE's seq).
    func streams() -> [RecordedStream] {
        var out: [RecordedStream] = []
        var configureSeqs: [UInt8] = []
        for m in hostMessages() {
            switch m.message {
            case .configure:
                out.append(RecordedStream())
                configureSeqs.append(m.seq)
            case .frames(let block) where !out.isEmpty:
                for k in 0..<block.values.count { out[out.count - 1].frames[block.firstIndex &+ UInt32(k)] = block.values[k] }
            case .start(let s) where !out.isEmpty:
                out[out.count - 1].starts.append((tick(m.cycle), s.timebase))
            default: break
            }
        }
        var current = -1  // index of the stream the board is in
        for m in boardMessages() {
            // (A CONFIGURE sent again because its reply was lost makes an empty stream: skip to the one
            // the board answers.)
            if case .status(let s) = m.message, s.state == .configured, s.nextExpected == 0, s.nextPlay == 0,
               let k = out.indices.first(where: { $0 > current && configureSeqs[$0] == s.ackSeq }) {
                current = k
                out[current].rxErrorsAtStart = Int(s.rxCRCErrors) + Int(s.rxOtherErrors)
                continue
            }
            guard current >= 0 else { continue }
            switch m.message {
            case .played(let p):
                out[current].played.append(p)
            case .status(let s):
                // A change in the receive error counters: some message never reached the board.
                let errors = Int(s.rxCRCErrors) + Int(s.rxOtherErrors)
                if out[current].firstRxErrorTick == nil && errors != out[current].rxErrorsAtStart {
                    out[current].firstRxErrorTick = Int64(s.tick)
                }
                // The first STATUS after playback began that shows the board stopped (ack 0: unsolicited; a
                // reply to a host message with seq 0 would come after it).
                if s.ackSeq == 0 && out[current].endTick == nil && !out[current].played.isEmpty
                    && (s.state == .configured || s.state == .failsafe) {
                    out[current].endTick = Int64(s.tick)
                    out[current].endState = s.state
                }
            default: break
            }
        }
        return out
    }
}

private func hexBytes(_ s: Substring) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count / 2)
    var hi: UInt8?
    for c in s.utf8 {
        let v: UInt8 = c <= UInt8(ascii: "9") ? c - UInt8(ascii: "0") : c - UInt8(ascii: "a") + 10
        if let h = hi { out.append(h << 4 | v); hi = nil } else { hi = v }
    }
    return out
}
