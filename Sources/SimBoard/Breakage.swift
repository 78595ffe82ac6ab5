// Deliberately broken simulated boards, for proving that the conformance suite catches a board that
// breaks one promise of protocol.md (and names that clause only). The board logic stays correct; the
// lie is told on the way out, as a flawed firmware would tell it.

import MotorWire

public enum Breakage: String, Sendable, CaseIterable {
    /// The failsafe fires but the board never says so (no unsolicited STATUS failsafe).
    case failsafeReport = "failsafe-report"
    /// INFO claims twice the buffer the board has: the window edge is not where INFO puts it.
    case windowEdge = "window-edge"

    /// What the broken board sends instead of `message` (nil: nothing).
    func rewrite(_ message: BoardMessage) -> BoardMessage? {
        switch (self, message) {
        case (.failsafeReport, .status(let s)) where s.ackSeq == 0 && s.state == .failsafe:
            return nil
        case (.windowEdge, .info(var i)):
            i.bufferCapacity *= 2
            return .info(i)
        default:
            return message
        }
    }

    /// Re-encodes one wire frame with `rewrite` applied (other frames pass through as they are).
    func rewrite(wire: FixedBytes) -> [UInt8] {
        var decoder = FrameDecoder()
        var bytes: [UInt8] = []
        for i in 0..<wire.count { bytes.append(wire[i]) }
        for b in bytes {
            guard case .packet(let p)? = decoder.push(b), let m = try? BoardMessage(p) else { continue }
            guard let replaced = rewrite(m) else { return [] }
            var out = FixedBytes()
            guard replaced.encode(seq: p.seq, into: &out) else { return bytes }
            return (0..<out.count).map { out[$0] }
        }
        return bytes
    }
}
