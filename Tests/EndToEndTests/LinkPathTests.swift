// `sim-board --link PATH` never deletes or replaces what is not its own: real processes, and the path
// checked afterwards (same inode, same content, same device numbers).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import TestSupport
import Testing

/// What was at a path: enough to tell that nothing replaced, emptied or removed it.
private struct Fingerprint: Equatable, CustomStringConvertible {
    var inode: UInt64, mode: UInt32, device: UInt64, size: Int64, content: String?, link: String?
    var description: String { "inode \(inode) mode \(String(mode, radix: 8)) rdev \(device) size \(size) link \(link ?? "-")" }

    init?(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        inode = UInt64(st.st_ino); mode = st.st_mode; device = UInt64(st.st_rdev); size = Int64(st.st_size)
        content = (st.st_mode & S_IFMT) == S_IFREG ? try? String(contentsOfFile: path, encoding: .utf8) : nil
        link = (st.st_mode & S_IFMT) == S_IFLNK ? try? FileManager.default.destinationOfSymbolicLink(atPath: path) : nil
    }
}

private func scratchDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-linkpath-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

@Suite(.tags(.realTime), .timeLimit(.minutes(3))) struct LinkPathTests {
    /// Each thing a user may have at the path: refused with one line, left exactly as it was.
    @Test(arguments: ["file", "device", "directory", "link-to-file", "link-to-dangling-file"])
    func whatIsNotABoardLinkIsRefusedAndUntouched(_ kind: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("v.txt").path
        let expected: String
        switch kind {
        case "file":
            try "x\n".write(toFile: path, atomically: false, encoding: .utf8)
            expected = "--link \(path): a file is already there and is not ours; choose a path where nothing is"
        case "device":
            // A copy of /dev/null's node (root only, as CI runs); as a user, a FIFO stands in for it.
            if mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {
                expected = "--link \(path): a character device is already there and is not ours; choose a path where nothing is"
            } else {
                #expect(mkfifo(path, 0o644) == 0)
                expected = "--link \(path): a FIFO is already there and is not ours; choose a path where nothing is"
            }
        case "directory":
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            expected = "--link \(path): a directory is already there and is not ours; choose a path where nothing is"
        case "link-to-file":
            let file = dir.appendingPathComponent("real.csv").path
            try "data\n".write(toFile: file, atomically: false, encoding: .utf8)
            #expect(symlink(file, path) == 0)
            expected = "--link \(path): it is a symlink to \(file), not a board's pseudo-terminal; remove it or choose another path"
        default:
            #expect(symlink("/dev/ttyUSB9-gone", path) == 0)
            expected = "--link \(path): it is a symlink to /dev/ttyUSB9-gone, not a board's pseudo-terminal; remove it or choose another path"
        }
        let before = try #require(Fingerprint(path))
        let r = try runMotorbreath(["sim-board", "--link", path], timeout: 10)
        #expect(r.status == 1, "\(kind): \(r.stderr)")
        #expect(r.stderr == "motorbreath: \(expected)\n", "\(kind)")
        #expect(r.stdout.isEmpty, "\(kind): \(r.stdout)")
        #expect(Fingerprint(path) == before, "\(kind): the path changed")
    }

    /// Two boards given one path: the second is refused, and its exit leaves the first's live link.
    @Test func aSecondBoardCannotTakeOrDeleteALiveLink() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("board").path
        let first = try SimBoardProcess(arguments: ["--link", path])
        defer { first.stop() }
        let r = try runMotorbreath(["sim-board", "--link", path], timeout: 10)
        #expect(r.status == 1)
        #expect(r.stderr == "motorbreath: --link \(path) is in use: it names \(first.ptyPath), a pseudo-terminal that is open (another board?); stop that board or choose another path\n")
        #expect(Fingerprint(path)?.link == first.ptyPath)
        first.stop()
        #expect(Fingerprint(path) == nil, "the board's own link is removed at exit")
    }

    /// A board killed with SIGKILL leaves its link; its pseudo-terminal went with it, so the next board
    /// started at the path takes the link over, and removes it at its own exit.
    @Test func aStaleLinkIsReclaimedByTheNextBoard() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("board").path
        let first = try SimBoardProcess(arguments: ["--link", path])
        first.kill()
        #expect(Fingerprint(path)?.link == first.ptyPath, "SIGKILL leaves the link")
        let second = try SimBoardProcess(arguments: ["--link", path])
        defer { second.stop() }
        #expect(second.ptyPath.hasPrefix("/dev/pts/"), "the second board did not start")
        #expect(Fingerprint(path)?.link == second.ptyPath)
        second.stop()
        #expect(Fingerprint(path) == nil)
    }

    /// A link the user pointed elsewhere while the board ran is theirs now: the board leaves it at exit.
    @Test func aLinkChangedWhileTheBoardRanIsLeftAtExit() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("board").path
        let board = try SimBoardProcess(arguments: ["--link", path])
        defer { board.stop() }
        #expect(Fingerprint(path)?.link == board.ptyPath)
        #expect(unlink(path) == 0 && symlink("/dev/null", path) == 0)
        board.stop()
        #expect(Fingerprint(path)?.link == "/dev/null")
    }
}
