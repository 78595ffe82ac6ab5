// What a known adapter (LinkProfile) changes in clock sync: each exchange's documented minimum delay per
// direction, and request times spread over the adapter's hold so some reply finds the hold just ending.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

/// The clock-sync side of a `LinkProfile`: per-exchange minima and when to send the next request.
struct LinkAwareSync {
    let profile: LinkProfile
    /// Wire bytes of CLOCK_REQ and CLOCK (COBS and delimiter included): their UART times are the minima.
    static let requestBytes = wireBytes(HostMessage.clockRequest(token: 0).encode)
    static let replyBytes = wireBytes(BoardMessage.clock(token: 0, tick: 0).encode)

    private static func wireBytes(_ encode: (UInt8, inout FixedBytes) -> Bool) -> Int {
        var wire = FixedBytes()
        _ = encode(0, &wire)
        return wire.count
    }

    /// The minima of one exchange. To the board: the request's UART time. To the host: the reply's UART
    /// time; on an adapter that hands over bytes at USB frames (CH340, CP2102, CDC), when the request went
    /// out on an idle line and the reply came alone, the reply is locked to the frame that brought the
    /// request in: it leaves at the first frame after its first byte is in, and not before its last
    /// (`frameLockedToHostNs`), so it took at least that long.
    func minima(lineWasIdle: Bool, replyAlone: Bool) -> (toBoard: Double, toHost: Double) {
        let m = profile.minimaNs(requestBytes: Self.requestBytes, replyBytes: Self.replyBytes)
        guard lineWasIdle, replyAlone, let locked = frameLockedToHostNs else { return m }
        return (m.toBoard, max(m.toHost, locked))
    }

    /// A frame-grid adapter's reply delay to a request that arrived just as a frame's data came in:
    /// the request's UART time after frame F, the reply sent at F + k ms (k whole frames), less the
    /// request's UART time. nil for FTDI (its timer is not locked to the frames).
    var frameLockedToHostNs: Double? {
        guard profile.adapter != .ftdi else { return nil }
        let frame = Double(LinkProfile.usbFrameNs)
        let request = profile.uartNs(Self.requestBytes)
        let firstIn = request + profile.uartNs(1), lastIn = request + profile.uartNs(Self.replyBytes)
        let k = max((firstIn / frame).rounded(.down) + 1, (lastIn / frame).rounded(.up))
        return k * frame - request
    }

    /// Whether a request written at `now` goes out without queueing behind the host's previous write
    /// (`lastWriteBytes` written at `lastWriteNs`): that write's bytes are over the UART by then, with a USB
    /// frame to spare.
    func lineIdle(now: UInt64, lastWriteNs: UInt64, lastWriteBytes: Int) -> Bool {
        let busy = Double(LinkProfile.usbFrameNs) + profile.uartNs(lastWriteBytes)
        return now >= lastWriteNs && Double(now - lastWriteNs) >= busy
    }

    /// When request number `k` (counting from 0) is due, about `intervalNs` after `now`: at the phase
    /// frac(k × golden ratio) of the adapter's hold (host clock modulo the hold), from half a hold (at most
    /// half the interval) before `now + intervalNs`: on average the interval, or a little more. The phases fill the hold evenly whatever its unknown phase is, so the
    /// fastest reply in any stretch of requests waited little for the hold (a fixed spacing can lock to the
    /// timer: 20 ms requests on a 16 ms timer meet only 4 of its 16 ms).
    func due(after now: UInt64, intervalNs: UInt64, k: UInt64) -> UInt64 {
        let hold = profile.holdNs
        let phase = UInt64((Double(k) * 0.618_033_988_749_894_9).truncatingRemainder(dividingBy: 1) * Double(hold))
        let earliest = now + intervalNs - min(intervalNs, hold) / 2
        return earliest + (phase + hold - earliest % hold) % hold
    }
}
