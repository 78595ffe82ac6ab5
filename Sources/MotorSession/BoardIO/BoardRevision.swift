// Asks a board which protocol revision it keeps (protocol.md section 10): HELLO with the host's revision,
// answered by INFO with its extension from a board of revision 1.2 or later, by NAK bad_message from a
// board of revision 1.1, and by a plain INFO or nothing from one of revision 1.0.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

extension BoardChannel {
    /// The INFO a board sends when asked with this host's revision, or nil when the board announces none
    /// (it predates revision 1.2). Call after `hello`: a plain INFO that comes meanwhile (a late answer to
    /// an earlier HELLO, or a board that ignores HELLO's payload) is not an announcement and is skipped.
    public func announcedInfo(timeoutMs: Int = 500) throws(SessionError) -> Info? {
        let seq = try send(.helloRevision(Wire.revision))
        do {
            return try waitFor("INFO with a revision", timeoutMs: timeoutMs) { m throws(SessionError) -> Info?? in
                switch m {
                case .info(let i) where i.revision != nil: return .some(i)
                case .nak(let n) where n.refSeq == seq: return .some(nil)  // an older board: HELLO must be empty
                default: return nil
                }
            }
        } catch {
            if case .timeout = error { return nil }
            throw error
        }
    }
}
