// Opens a port path with the right link: termios for pseudo-terminals, libserialport otherwise.

import Glibc

public enum PortOpener {
    /// Opens `path` at `baud`. Ptys (also via symlinks such as socat's link=) use TTYLink;
    /// real devices use libserialport.
    public static func open(path: String, baud: Int = 115_200) throws(LinkError) -> ByteLink {
        var st = stat()
        guard stat(path, &st) == 0 else { throw LinkError.from(errno: errno, path: path, operation: "open") }
        guard (st.st_mode & S_IFMT) == S_IFCHR else { throw .notASerialPort(path: path) }
        if isPseudoTerminal(st) {
            return try TTYLink(path: path, baud: baud)
        }
        return try SerialPortLink(path: path, baud: baud)
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
