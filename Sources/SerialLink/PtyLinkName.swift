// A stable name for a pseudo-terminal (`sim-board --link PATH`): a symlink made only where nothing is, or
// over the stale link of a board that is gone, and removed at exit only while it still points at our pty.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// A symlink at a path the user chose that names this process's pseudo-terminal.
///
/// It never replaces what it does not own: a regular file, a device node, a directory or a symlink to
/// anything but a pseudo-terminal that no longer exists is refused with one line. A board killed with
/// SIGKILL leaves its link behind; its pseudo-terminal vanished with it, so a board started again at the
/// same path reclaims the link. The kernel reuses pty numbers, so a link whose number now names a pty made
/// after the link (another program's) is stale too: a pty's node is stamped when it is made. `release()` removes the link only if it still points at `target`, so two
/// boards given one path never delete each other's live link.
///
///     let name = try PtyLinkName.claim("/tmp/board", for: pty.slavePath)
///     defer { name.release() }
public struct PtyLinkName: Sendable {
    /// The link's path, as given.
    public let path: String
    /// The pseudo-terminal it names (e.g. /dev/pts/3).
    public let target: String

    /// Why a path cannot be ours: one line each, naming the path and what to do.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Something that is not a link is there (a regular file, a device, a directory, ...).
        case occupied(path: String, kind: String)
        /// A symlink to something that is not a pseudo-terminal.
        case foreignLink(path: String, to: String)
        /// A symlink to a pseudo-terminal that exists: another board (or program) has it.
        case liveLink(path: String, to: String)
        /// The system refused to make the link (no such directory, permission, name too long).
        case cannotCreate(path: String, reason: String)

        public var description: String {
            switch self {
            case .occupied(let path, let kind):
                return "--link \(path): \(kind) is already there and is not ours; choose a path where nothing is"
            case .foreignLink(let path, let to):
                return "--link \(path): it is a symlink to \(to), not a board's pseudo-terminal; remove it or choose another path"
            case .liveLink(let path, let to):
                return "--link \(path) is in use: it names \(to), a pseudo-terminal that is open (another board?); stop that board or choose another path"
            case .cannotCreate(let path, let reason):
                return "cannot create the link \(path): \(reason)"
            }
        }
    }

    /// Makes `path` a symlink to `target`, where nothing is or over a stale pseudo-terminal link.
    public static func claim(_ path: String, for target: String) throws(Refusal) -> PtyLinkName {
        for _ in 0..<3 {  // another process may make or remove the path between our look and our act
            var st = stat()
            if lstat(path, &st) != 0 {
                guard errno == ENOENT else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
                if symlink(target, path) == 0 { return PtyLinkName(path: path, target: target) }
                if errno == EEXIST { continue }
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            guard st.st_mode & S_IFMT == S_IFLNK else { throw .occupied(path: path, kind: kind(of: st.st_mode)) }
            guard let old = readLink(path) else { continue }
            if old == target { return PtyLinkName(path: path, target: target) }  // the kernel gave us its old pty
            guard isPseudoTerminalPath(old) else { throw .foreignLink(path: path, to: old) }
            var pts = stat()
            if lstat(old, &pts) == 0 {
                // Pseudo-terminal numbers are reused: a pty made after the link is not the one it was made
                // for (the kernel stamps a pty's node when it is made; the link is made after its pty).
                guard isLater(pts.st_ctim, than: st.st_ctim) else { throw .liveLink(path: path, to: old) }
            } else if errno != ENOENT {
                throw .liveLink(path: path, to: old)
            }
            // Stale: its board is gone. A new name first, then rename over it: a host reopening the path
            // never sees it missing. Short, so any valid link name has room for it.
            let temporary = directory(of: path) + ".mb-link-\(getpid()).tmp"
            unlink(temporary)
            guard symlink(target, temporary) == 0 else {
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw .cannotCreate(path: path, reason: reason)
            }
            return PtyLinkName(path: path, target: target)
        }
        throw .cannotCreate(path: path, reason: "another program keeps changing it")
    }

    /// Removes the link if it still names our pseudo-terminal; anything else there is left alone.
    public func release() {
        if PtyLinkName.readLink(path) == target { unlink(path) }
    }

    /// True when `a` is strictly after `b` (equal stamps, one clock tick apart or less, count as not later).
    static func isLater(_ a: timespec, than b: timespec) -> Bool {
        a.tv_sec != b.tv_sec ? a.tv_sec > b.tv_sec : a.tv_nsec > b.tv_nsec
    }

    /// True for the names the kernel gives pseudo-terminals (/dev/pts/N).
    static func isPseudoTerminalPath(_ p: String) -> Bool {
        p.hasPrefix("/dev/pts/") && p.count > 9 && p.dropFirst(9).allSatisfy(\.isNumber)
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a file"
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "something"
        }
    }
}
