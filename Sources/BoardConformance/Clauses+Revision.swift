// Conformance clauses for revisions (protocol.md section 10): a board of revision 1.2 or later announces
// its revision in INFO's extension to a host that names its own in HELLO, and to no other host.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import MotorWire

extension Conformance {
    static let revisionClauses: [Clause] = [
        Clause("message.revision", "10", "HELLO naming the host's revision gets INFO announcing the board's; a plain HELLO, INFO without it",
               since: .r1_2) { rig in
            var results: [String] = []
            for hostRevision in [Wire.revision, 255] {  // this host's, and a later host's
                let got = try rig.exchange(.helloRevision(hostRevision))
                let infos = got.compactMap { m -> Info? in if case .info(let i) = m { return i } else { return nil } }
                try require(infos.count == 1 && infos[0].revision != nil && infos[0] == rig.info,
                            "HELLO with host_revision \(hostRevision): expected the INFO of the start with revision \(rig.announced), got \(got.brief)")
                results.append("\(hostRevision)")
            }
            let plain = try rig.exchange(.hello)
            let infos = plain.compactMap { m -> Info? in if case .info(let i) = m { return i } else { return nil } }
            try require(infos.count == 1 && infos[0].revision == nil,
                        "plain HELLO: expected INFO without the extension (an old host reads only that), got \(plain.brief)")
            return .pass("revision \(rig.announced) to hosts of revision \(results.joined(separator: " and ")); none to a plain HELLO")
        },
        Clause("status.lost-bytes", "10", "STATUS carries rx_lost_bytes to a host that named revision 1.3 or later, and to no other host",
               since: .r1_3) { rig in
            func statusAfter(_ hello: HostMessage) throws -> Status? {
                _ = try rig.exchange(hello)
                let got = try rig.exchange(.heartbeat)
                let statuses = got.compactMap { m -> Status? in if case .status(let s) = m { return s } else { return nil } }
                try require(statuses.count == 1, "HEARTBEAT: expected one STATUS, got \(got.brief)")
                return statuses[0]
            }
            let current = try statusAfter(.helloRevision(Wire.revision))
            try require(current?.rxLostBytes != nil,
                        "after HELLO with host_revision \(Wire.revision): expected a 46-byte STATUS with rx_lost_bytes, got one of 42 bytes")
            let older = try statusAfter(.helloRevision(Revision.r1_2.number))
            try require(older?.rxLostBytes == nil,
                        "after HELLO with host_revision 2 (a revision 1.2 host): expected a 42-byte STATUS, got 46 bytes (rx_lost_bytes)")
            let plain = try statusAfter(.hello)
            try require(plain?.rxLostBytes == nil,
                        "after a plain HELLO: expected a 42-byte STATUS, got 46 bytes (rx_lost_bytes)")
            return .pass("rx_lost_bytes \(current?.rxLostBytes ?? 0) to a host of revision 1.3; 42 bytes to hosts of 1.2 and to a plain HELLO")
        },
    ]
}
