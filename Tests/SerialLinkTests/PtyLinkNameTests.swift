// A board's --link name against real pseudo-terminals: a live board's link is refused, and a link whose pty
// number the kernel has since given to another program's pty is reclaimed (CI failed on that reuse once).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import SerialLink
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(2))) struct PtyLinkNameTests {
    func scratchPath() throws -> (dir: URL, path: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-ptylink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (dir, dir.appendingPathComponent("board").path)
    }

    func linkTarget(_ path: String) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: path) }

    @Test func aLinkToAPtyThatIsStillOpenIsRefused() throws {
        let (dir, path) = try scratchPath()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try PseudoTerminal()
        defer { first.close() }
        let name = try PtyLinkName.claim(path, for: first.slavePath)
        defer { name.release() }
        let second = try PseudoTerminal()
        defer { second.close() }
        #expect(throws: PtyLinkName.Refusal.liveLink(path: path, to: first.slavePath)) {
            _ = try PtyLinkName.claim(path, for: second.slavePath)
        }
        #expect(linkTarget(path) == first.slavePath)
    }

    /// The first board's pty closes, its number goes to a pty made later (another program's, here ours),
    /// and a board started at the path must still take its link over.
    @Test func aLinkWhosePtyNumberWasReusedIsReclaimed() throws {
        let (dir, path) = try scratchPath()
        defer { try? FileManager.default.removeItem(at: dir) }
        var reused = false
        for _ in 0..<20 where !reused {
            var first: PseudoTerminal? = try PseudoTerminal()
            let old = first!.slavePath
            _ = try PtyLinkName.claim(path, for: old)  // left behind, as by a board killed with SIGKILL
            first!.close()
            first = nil
            let held = PtyReuse.take(old)
            defer { held?.forEach { $0.close() } }
            guard held != nil else { unlink(path); continue }  // another process took it
            reused = true
            let mine = try PseudoTerminal()
            defer { mine.close() }
            let name = try PtyLinkName.claim(path, for: mine.slavePath)
            #expect(linkTarget(path) == mine.slavePath)
            name.release()
            #expect(linkTarget(path) == nil)
        }
        #expect(reused, "no pty number was reused in 20 tries, so the case was not tried")
    }
}

/// The kernel hands out the lowest free pty number: after a pty closed, the next ptys made take it back.
enum PtyReuse {
    /// Ptys made until one is at `path` (a /dev/pts/N just closed): they hold the number; close them after.
    /// Nil (and none held) when another process took the number first. Waits 20 ms first, past the kernel's
    /// coarse clock tick that stamps a pty's node when it is made.
    static func take(_ path: String) -> [PseudoTerminal]? {
        usleep(20_000)
        var held: [PseudoTerminal] = []
        while held.count < 8, held.last?.slavePath != path, let next = try? PseudoTerminal() { held.append(next) }
        guard held.last?.slavePath == path else {
            held.forEach { $0.close() }
            return nil
        }
        return held
    }
}
