// A pseudo-terminal named by its own /dev/pts/N path, as it was when the board's port was opened: the
// kernel gives a closed pty's number to the next pty made, another program's, so a reconnect by that path
// must not take it (PortOpener.reopen refuses a node made since).
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// The pty node at a /dev/pts/N path: its device number and the stamp the kernel gave it when it was made.
///
///     let node = PtyNode(path: "/dev/pts/3")          // when the port is first opened
///     if let why = node?.replaced() { print(why) }    // later: another pty has the number now
public struct PtyNode: Sendable, Equatable {
    public let path: String
    let device: dev_t
    let madeSeconds: Int
    let madeNanoseconds: Int

    /// The node at `path` when `path` itself is a /dev/pts/N name (not a symlink to one, such as a board's
    /// `--link` path, which only its board re-points); nil otherwise.
    public init?(path: String) {
        guard PtyLinkName.isPseudoTerminalPath(path) else { return nil }
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR else { return nil }
        self.path = path
        device = st.st_rdev
        madeSeconds = st.st_ctim.tv_sec
        madeNanoseconds = st.st_ctim.tv_nsec
    }

    /// Why the node at the path now is not this one (a pty made since: the number was given again), or nil
    /// when it is this one or none is there (opening it then says so).
    public func replaced() -> String? {
        guard let now = PtyNode(path: path) else { return nil }
        let later = PtyLinkName.isLater(timespec(tv_sec: now.madeSeconds, tv_nsec: now.madeNanoseconds),
                                        than: timespec(tv_sec: madeSeconds, tv_nsec: madeNanoseconds))
        guard now.device != device || later else { return nil }
        return "it is another pseudo-terminal now (the board's closed and the kernel gave its number to a new one, another program's), so it is not reopened; a board that restarts keeps one path with sim-board --link PATH"
    }
}
