// Helpers for tests: hex text <-> bytes, encoding a message to a byte array, decoding a byte array.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

func hexBytes(_ text: String) -> [UInt8] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { UInt8($0, radix: 16)! }
}

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16, uppercase: true).count == 1 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true) }.joined(separator: " ")
}

func array(_ f: FixedBytes) -> [UInt8] { (0..<f.count).map { f[$0] } }

func fixed(_ bytes: [UInt8]) -> FixedBytes {
    var f = FixedBytes()
    for b in bytes { f.append(b) }
    return f
}

func wireBytes(_ m: HostMessage, seq: UInt8) -> [UInt8] {
    var w = FixedBytes()
    precondition(m.encode(seq: seq, into: &w))
    return array(w)
}

func wireBytes(_ m: BoardMessage, seq: UInt8) -> [UInt8] {
    var w = FixedBytes()
    precondition(m.encode(seq: seq, into: &w))
    return array(w)
}

/// Feeds bytes to a fresh decoder and returns every event.
func decodeAll(_ bytes: [UInt8], decoder: inout FrameDecoder) -> [DecodeEvent] {
    bytes.compactMap { decoder.push($0) }
}

func packets(_ events: [DecodeEvent]) -> [Packet] {
    events.compactMap { if case .packet(let p) = $0 { return p } else { return nil } }
}
