// A tty opened with termios: raw 8N1, exclusive, nonblocking, poll-driven. Used for pseudo-terminals
// (which libserialport cannot open) and as the fallback for other tty devices.
// SPDX-License-Identifier: Apache-2.0

import CTTYControl
import Glibc

/// A terminal device (pty slave, socat link, or real UART) configured raw.
public final class TTYLink: ByteLink, IdleWaitLink, ModemControl, @unchecked Sendable {
    public let name: String
    private let stream: FDStream
    /// True for a pseudo-terminal, which has no modem lines.
    public let isPseudoTerminal: Bool

    /// Opens `path` raw at `baud` (ignored by ptys), exclusively.
    public convenience init(path: String, baud: Int = 115_200) throws(LinkError) {
        try self.init(path: path, settings: LinkSettings(baud: baud))
    }

    /// Opens `path` raw with `settings`, exclusively. Standard rates use termios; any other rate in
    /// `LinkSettings.baudRange` goes through termios2 (BOTHER) and is read back from the driver.
    public init(path: String, settings: LinkSettings) throws(LinkError) {
        let baud = settings.baud
        name = path
        isPseudoTerminal = PortOpener.isPseudoTerminal(path: path)
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw LinkError.from(errno: errno, path: path, operation: "open") }
        guard isatty(fd) == 1 else {
            Glibc.close(fd)
            throw .notASerialPort(path: path)
        }
        // Advisory lock shared with other motorbreath processes, so a second one gets "busy".
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            Glibc.close(fd)
            throw .busy(path: path)
        }
        // A real tty: no other program may open it while we play (TIOCEXCL; root still can). Not on a
        // pseudo-terminal: its board side keeps it open, so the flag would outlive a killed host and lock
        // out the next one.
        if !isPseudoTerminal { _ = mb_tty_set_exclusive(fd, 1) }
        var tio = termios()
        guard tcgetattr(fd, &tio) == 0 else {
            let e = errno
            Glibc.close(fd)
            throw LinkError.from(errno: e, path: path, operation: "tcgetattr")
        }
        cfmakeraw(&tio)
        tio.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        tio.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
        tio.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        guard LinkSettings.baudRange.contains(baud) else {
            Glibc.close(fd)
            throw .unsupportedBaud(path: path, baud: baud)
        }
        let standard = TTYLink.speed(for: baud)
        cfsetispeed(&tio, standard ?? speed_t(B38400))
        cfsetospeed(&tio, standard ?? speed_t(B38400))
        guard tcsetattr(fd, TCSANOW, &tio) == 0 else {
            let e = errno
            Glibc.close(fd)
            throw LinkError.from(errno: e, path: path, operation: "tcsetattr")
        }
        if standard == nil {
            // A rate termios has no constant for (250000 for an AVR at 16 MHz): termios2 with BOTHER.
            let got = mb_tty_set_baud(fd, UInt32(baud)) == 0 ? Int(mb_tty_get_baud(fd)) : 0
            guard settings.accepts(actualBaud: got) else {
                Glibc.close(fd)
                throw .unsupportedBaud(path: path, baud: baud)
            }
        }
        tcflush(fd, TCIOFLUSH)
        stream = FDStream(fd: fd, name: path)
        do throws(LinkError) { try apply(settings) } catch {
            stream.close()
            throw error
        }
    }

    /// The output rate the driver holds (what the adapter was really set to).
    public var baudRate: Int { Int(mb_tty_get_baud(stream.descriptor)) }

    public func setDTR(_ on: Bool) throws(LinkError) { try setLine(mb_tty_set_dtr, on, "DTR") }
    public func setRTS(_ on: Bool) throws(LinkError) { try setLine(mb_tty_set_rts, on, "RTS") }

    private func setLine(_ set: (Int32, Int32) -> Int32, _ on: Bool, _ line: String) throws(LinkError) {
        // A pseudo-terminal has no modem lines: there is nothing to set, and nothing is wrong.
        if isPseudoTerminal { return }
        let fd = stream.descriptor
        guard fd >= 0 else { throw .closed }
        if set(fd, on ? 1 : 0) != 0 {
            throw LinkError.from(errno: errno, path: name, operation: "set \(line) on")
        }
    }

    static func speed(for baud: Int) -> speed_t? {
        switch baud {
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        case 230_400: speed_t(B230400)
        case 460_800: speed_t(B460800)
        case 500_000: speed_t(B500000)
        case 921_600: speed_t(B921600)
        case 1_000_000: speed_t(B1000000)
        case 2_000_000: speed_t(B2000000)
        default: nil
        }
    }

    public func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError) {
        try stream.write(bytes, timeoutMs: timeoutMs)
    }

    public func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        try stream.read(maxBytes: maxBytes, timeoutMs: timeoutMs)
    }

    public func readAfterWaiting(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        try stream.readAfterWaiting(maxBytes: maxBytes, timeoutMs: timeoutMs)
    }

    public func close() { stream.close() }
    public func wake() { stream.wake() }
}
