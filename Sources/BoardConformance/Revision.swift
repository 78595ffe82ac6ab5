// Protocol revisions of version 1 (protocol.md section 10): what a board announces in INFO, and what the
// conformance suite holds it to. Each clause names the revision that introduced it.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// A revision of protocol version 1: "1.0", "1.1", "1.2" (the number after the dot is INFO's `revision`).
public struct Revision: Comparable, Sendable, CustomStringConvertible {
    public let number: UInt8

    public init(_ number: UInt8) { self.number = number }

    /// "1.1" (or "1"), the form `conform --revision` takes; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0] == "\(Wire.version)" else { return nil }
        guard let n = parts.count == 2 ? UInt8(parts[1]) : 0 else { return nil }
        number = n
    }

    /// The first revision: what a board that announces none is held to.
    public static let r1_0 = Revision(0)
    /// Decided what 1.0 left to guess (replies, refusals, the failsafe report, the end of a stream, counters).
    public static let r1_1 = Revision(1)
    /// Boards announce their revision (HELLO's `host_revision`, INFO's extension).
    public static let r1_2 = Revision(2)
    /// STATUS appends `rx_lost_bytes` for a host that named revision 1.3 or later.
    public static let r1_3 = Revision(3)
    /// CLOCK_REQ's `hold_ms`: the board holds the request that long, and answers with the ticks it held it.
    public static let r1_4 = Revision(4)
    /// The optional vibration sensor (capability bit 4): SENSE, SENSOR, SAMPLES.
    public static let r1_5 = Revision(5)
    /// The revision this code implements.
    public static let current = Revision(Wire.revision)

    /// What the board behind `info` announced (1.0 when it announces none).
    public static func announced(by info: Info) -> Revision { Revision(info.revision ?? 0) }

    public var description: String { "\(Wire.version).\(number)" }
    public static func < (a: Revision, b: Revision) -> Bool { a.number < b.number }
}
