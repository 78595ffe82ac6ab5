// Opens a port path with the right link: termios for pseudo-terminals, libserialport otherwise.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// Opens a port path as a ``ByteLink`` with the right code path: termios (``TTYLink``) for pseudo-terminals,
/// libserialport otherwise. Refuses with a one-line ``LinkError`` a path that is not a character device, a
/// terminal that can never be a board (the pty multiplexer, this process's own terminal, the console), and
/// a port another program has open (``PortHolders``).
///
///     let link = try PortOpener.open(path: "/dev/ttyACM0", baud: 250_000)
///     try link.write([0x00])
public enum PortOpener {
    /// Opens `path` at `baud`. Ptys (also via symlinks such as socat's link=) use TTYLink;
    /// real devices use libserialport.
    public static func open(path: String, baud: Int = 115_200) throws(LinkError) -> ByteLink {
        try open(path: path, settings: LinkSettings(baud: baud))
    }

    /// Opens `path` with `settings`; `settings.driver` can force either code path (tests, odd devices).
    public static func open(path: String, settings: LinkSettings) throws(LinkError) -> ByteLink {
        var st = stat()
        guard stat(path, &st) == 0 else { throw LinkError.from(errno: errno, path: path, operation: "open") }
        guard (st.st_mode & S_IFMT) == S_IFCHR else { throw .notASerialPort(path: path) }
        if let why = notABoardPort(st) { throw .driverCannotOpen(path: path, reason: why) }
        // A tty has no lock another program must respect: refuse a port someone else is reading.
        if let other = PortHolders.others(of: st).first {
            throw .openElsewhere(path: path, pid: other.pid, program: other.program)
        }
        switch settings.driver {
        case .termios:
            return try TTYLink(path: path, settings: settings)
        case .libserialport:
            return try SerialPortLink(path: resolved(path), settings: settings)
        case .auto:
            if isPseudoTerminal(st) { return try TTYLink(path: path, settings: settings) }
            return try SerialPortLink(path: resolved(path), settings: settings)
        }
    }

    /// Opens `path` again after its board went away (an unplug, a reset, a board process restarted). `node`
    /// is the pty the path named when it was first opened (``PtyNode``): a pty made since at that number is
    /// another program's and is refused, one line. Anything else opens as ``open(path:settings:)`` does.
    public static func reopen(path: String, settings: LinkSettings, node: PtyNode?) throws(LinkError) -> ByteLink {
        if let why = node?.replaced() { throw .driverCannotOpen(path: path, reason: why) }
        return try open(path: path, settings: settings)
    }

    /// Why a terminal device can never be a board's port: the pty multiplexer, this process's own
    /// terminal, the console (character devices 5:2, 5:0, 5:1). Nil for anything else.
    static func notABoardPort(_ st: stat) -> String? {
        guard (st.st_rdev >> 8) & 0xFFF == 5 else { return nil }
        switch st.st_rdev & 0xFF {
        case 2: return "it is the pseudo-terminal multiplexer, not a port: give the /dev/pts/N path a board prints (motorbreath sim-board) or a USB port such as /dev/ttyUSB0"
        case 0: return "it is this program's own terminal, not a board's port: give the board's port, e.g. /dev/ttyUSB0 (motorbreath ports lists them)"
        case 1: return "it is the system console, not a board's port: give the board's port, e.g. /dev/ttyUSB0 (motorbreath ports lists them)"
        default: return nil
        }
    }

    /// libserialport looks ports up by their /dev name: follow symlinks such as /dev/serial/by-id/... first.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Unix98 pty slaves have major numbers 136...143.
    static func isPseudoTerminal(_ st: stat) -> Bool {
        let major = (st.st_rdev >> 8) & 0xFFF
        return (136...143).contains(major)
    }

    public static func isPseudoTerminal(path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && isPseudoTerminal(st)
    }
}
