// What play's options do not take together with several boards.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser

extension Play {
    /// What several boards do not take: --sim-link for all of them, virtual time for ports.
    func validateSeveral() throws {
        guard simLink == nil else {
            throw ValidationError("give each simulated board its own link: --board NAME=sim:LINK")
        }
        let allSimulated = board.layout.allSatisfy { if case .simulated = $0.place { true } else { false } }
        guard !virtualTime || allSimulated else { throw ValidationError("--virtual-time works when every board is simulated") }
        // In virtual time each simulated board runs as fast as its own thread can: a change or stop from
        // outside would land at a different point of the breath on each.
        guard !virtualTime || (control == nil && controlSocket == nil) else {
            throw ValidationError("--virtual-time runs each board at its own speed: steer several boards in real time (drop --virtual-time)")
        }
    }
}
