// Opens a port path with the right link: termios for pseudo-terminals, libserialport otherwise.

import Glibc

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
