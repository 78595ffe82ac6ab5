// Conformance clauses for revisions (protocol.md section 10): a board of revision 1.2 or later announces
// its revision in INFO's extension to a host that names its own in HELLO, and to no other host.

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
    ]
}
