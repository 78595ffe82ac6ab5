// What the tests of several boards share: two `sim-board` processes named left and right, a control socket
// path of a test's own, and a drive log's felt half-strength crossings through the reference ERM.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import TimingBench

/// Two `sim-board` processes on pseudo-terminals, left and right; `kill()` ends both (tests `defer` it).
final class TwoSimBoards {
    let left: SimBoardProcess
    let right: SimBoardProcess

    init() throws {
        left = try SimBoardProcess()
        do { right = try SimBoardProcess() } catch {
            left.kill()
            throw error
        }
    }

    /// `--board left=PTY --board right=PTY`.
    var layout: [String] { ["--board", "left=\(left.ptyPath)", "--board", "right=\(right.ptyPath)"] }

    func kill() {
        left.kill()
        right.kill()
    }
}

/// A Unix socket path no other test uses, in the temporary directory.
func controlSocketPath(_ tag: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("mb-\(tag)-\(UUID().uuidString.prefix(8)).sock").path
}

extension DriveRecord {
    /// The instants (CLOCK_MONOTONIC ns) the felt amplitude of this drive through the reference ERM crosses
    /// half strength, up or down (FeltSkew, as the virtual-time tests judge it).
    var feltCrossings: [(ns: UInt64, up: Bool)] {
        FeltSkew.crossings(changes.map { (ns: monotonicNs(atTick: $0.tick), level: $0.level) }, model: ERMModel())
    }
}
