// What a session may know of the USB-serial adapter (or native USB port) between host and board: its kind,
// its hold (FTDI's latency timer) and the UART's baud rate, and each direction's documented minimum delay.
// SPDX-License-Identifier: Apache-2.0

/// The adapter between host and board, as far as the host can identify it: a real port tells it (sysfs:
/// an FTDI's latency timer, the USB vendor and product id; `USBSerialTuning.profile(forPort:baud:)`), a
/// simulated link is described the same way. The clock estimate uses it for each direction's minimum delay
/// and for when to send its requests; without one (an unknown adapter) both directions count as alike.
///
///     let ftdi = LinkProfile(adapter: .ftdi, holdMs: 16, baud: 115_200)
///     let minima = ftdi.minimaNs(requestBytes: 12, replyBytes: 20)  // (1042 µs, 1736 µs)
public struct LinkProfile: Sendable, Equatable {
    /// The device families known.
    public enum Adapter: String, Sendable, CaseIterable {
        /// FTDI bridge: holds board-to-host bytes until its latency timer (restarted on every send) runs out.
        case ftdi
        /// CH340 and CP210x bridges: hand over what they hold at the next 1 ms USB frame.
        case ch340, cp2102
        /// A native USB port (CDC ACM): no UART; flushed at every USB frame.
        case cdc
    }

    public var adapter: Adapter
    /// FTDI: the latency timer (ms); the others hand bytes over every USB frame (1 ms).
    public var holdMs: Int
    /// The UART's baud rate between the bridge and the board (ignored for `cdc`).
    public var baud: Int

    /// `holdMs` matters for FTDI only (the others are held to the 1 ms frame).
    public init(adapter: Adapter, holdMs: Int = 1, baud: Int = 115_200) {
        self.adapter = adapter
        self.holdMs = adapter == .ftdi ? max(1, holdMs) : 1
        self.baud = baud
    }

    /// A USB full-speed frame.
    public static let usbFrameNs: UInt64 = 1_000_000

    /// True for a bridge chip: every byte also takes 10 bits at `baud` (8N1) on the UART, both ways.
    public var hasUART: Bool { adapter != .cdc }

    /// The UART time of `bytes` bytes (0 without a UART).
    public func uartNs(_ bytes: Int) -> Double { hasUART ? Double(bytes) * 10e9 / Double(max(1, baud)) : 0 }

    /// The period over which the phase of a request decides its reply's wait: FTDI's latency timer, or
    /// the USB frame. Requests spread evenly over it let some reply find the hold just ending.
    public var holdNs: UInt64 { UInt64(holdMs) * 1_000_000 }

    /// Each direction's minimum delay for a request of `requestBytes` and a reply of `replyBytes` (wire
    /// bytes): host to board, the request's UART time (a write just before a USB frame); board to host, the
    /// reply's UART time (its last byte in the chip as the hold ends). Every reply on every adapter takes
    /// at least this long; these are lower bounds, never averages.
    public func minimaNs(requestBytes: Int, replyBytes: Int) -> (toBoard: Double, toHost: Double) {
        (uartNs(requestBytes), uartNs(replyBytes))
    }

    /// "ftdi, 16 ms latency timer, 115200 baud", for reports.
    public var summary: String {
        switch adapter {
        case .ftdi: return "ftdi, \(holdMs) ms latency timer, \(baud) baud"
        case .cdc: return "cdc (native USB)"
        default: return "\(adapter.rawValue), \(baud) baud"
        }
    }
}
