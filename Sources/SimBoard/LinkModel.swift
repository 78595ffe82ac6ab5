// Which USB-serial adapter (or native USB port) the simulated link is: the parameters of its mechanics,
// per direction, from each device's documentation (docs/link-models.md says where from).
// SPDX-License-Identifier: Apache-2.0

import SerialLink

/// A USB-serial adapter or native USB port between host and board, as `--sim-link ftdi` (and `ftdi-1ms`,
/// `ch340`, `cp2102`, `cdc`) selects it. Host to board: the bytes go out in the next 1 ms USB full-speed
/// frame, then (through a bridge chip) over the UART at `baud`. Board to host: the bytes cross the UART into
/// the chip, which holds them until a packet of `packetBytes` fills (sent at once) or its hold runs out: FTDI's
/// latency timer, restarted on every send; the others, the next USB frame. A native USB port (`cdc`) has no
/// UART: no byte time, and the baud rate is ignored.
///
///     var link = try LinkImpairments.parse("ftdi,timer=1ms,drop=0.001")
///     link.model?.baud = 1_000_000
public struct LinkModel: Sendable, Equatable {
    /// The device families modelled.
    public enum Kind: String, Sendable, CaseIterable {
        case ftdi, ch340, cp2102, cdc
    }

    public var kind: Kind
    /// How long the chip may hold a part-filled board-to-host packet: FTDI's latency timer (16 ms default,
    /// 1...255 ms), or one USB frame (1 ms) for a chip that hands over what it has each frame.
    public var holdNs: UInt64
    /// True: the hold is a timer that restarts whenever a packet is sent (FTDI). False: the hold ends at the
    /// next boundary of the fixed 1 ms USB frame grid.
    public var holdRestartsOnSend: Bool
    /// Data bytes in a full board-to-host packet (FTDI: 64 minus 2 status bytes; CH340: 32; CP2102, CDC: 64).
    public var packetBytes: Int
    /// True for a bridge chip: every byte also takes its UART time (10 bits at `baud`, 8N1) both ways.
    public var hasUART: Bool
    /// The UART's baud rate (the project's default, 115200; ignored without a UART).
    public var baud: Int = 115_200

    /// A USB full-speed frame: 1 ms (USB 2.0, one start-of-frame packet per millisecond).
    public static let usbFrameNs: UInt64 = 1_000_000

    public init(kind: Kind, holdNs: UInt64, holdRestartsOnSend: Bool, packetBytes: Int, hasUART: Bool, baud: Int = 115_200) {
        self.kind = kind
        self.holdNs = holdNs
        self.holdRestartsOnSend = holdRestartsOnSend
        self.packetBytes = packetBytes
        self.hasUART = hasUART
        self.baud = baud
    }

    /// The model for a device name: `ftdi` (16 ms latency timer), `ftdi-1ms` (the low-latency setting),
    /// `ch340`, `cp2102`, `cdc`; nil for any other text.
    public static func named(_ name: String) -> LinkModel? {
        switch name.lowercased() {
        case "ftdi": return LinkModel(kind: .ftdi, holdNs: 16_000_000, holdRestartsOnSend: true, packetBytes: 62, hasUART: true)
        case "ftdi-1ms": return LinkModel(kind: .ftdi, holdNs: 1_000_000, holdRestartsOnSend: true, packetBytes: 62, hasUART: true)
        case "ch340": return LinkModel(kind: .ch340, holdNs: usbFrameNs, holdRestartsOnSend: false, packetBytes: 32, hasUART: true)
        case "cp2102": return LinkModel(kind: .cp2102, holdNs: usbFrameNs, holdRestartsOnSend: false, packetBytes: 64, hasUART: true)
        case "cdc": return LinkModel(kind: .cdc, holdNs: usbFrameNs, holdRestartsOnSend: false, packetBytes: 64, hasUART: false)
        default: return nil
        }
    }

    /// The names `named` accepts, for error messages and help.
    public static let names = ["ftdi", "ftdi-1ms", "ch340", "cp2102", "cdc"]

    /// When the `count`th byte (1-based) of a burst that starts on the UART at `start` has fully crossed it.
    func uartDone(start: UInt64, count: Int) -> UInt64 {
        guard hasUART, count > 0 else { return start }
        return start + UInt64((Double(count) * 10e9 / Double(baud)).rounded())
    }

    /// A short description for reports: "FTDI, 16 ms latency timer, 62-byte packets, 115200 baud".
    public var summary: String {
        let hold = holdRestartsOnSend ? "\(holdNs / 1_000_000) ms latency timer" : "part-filled packets at the next 1 ms USB frame"
        return "\(kind.rawValue), \(hold), \(packetBytes)-byte packets, " + (hasUART ? "\(baud) baud" : "no UART")
    }
}

extension LinkModel {
    /// What a host can know of this adapter (its kind, FTDI's timer, the baud rate), described as a real
    /// port would describe it: the session gets this, never the simulation's phases or draws.
    public var profile: LinkProfile {
        let adapter: LinkProfile.Adapter
        switch kind {
        case .ftdi: adapter = .ftdi
        case .ch340: adapter = .ch340
        case .cp2102: adapter = .cp2102
        case .cdc: adapter = .cdc
        }
        return LinkProfile(adapter: adapter, holdMs: Int(holdNs / 1_000_000), baud: baud)
    }
}
