// A real serial port through libserialport: exclusive open, 8N1, no flow control, nonblocking I/O
// waited on with poll() on the port's handle, every return code checked.
// SPDX-License-Identifier: Apache-2.0

import CSerialPort
import CTTYControl
import Glibc

/// A USB-serial adapter or UART device (/dev/ttyUSB0, /dev/ttyACM0, ...).
public final class SerialPortLink: ByteLink, IdleWaitLink, ModemControl, @unchecked Sendable {
    public let name: String
    private var port: OpaquePointer?
    private var fd: Int32 = -1
    private let lock = Mutex()
    private let waker = Waker()

    public convenience init(path: String, baud: Int = 115_200) throws(LinkError) {
        try self.init(path: path, settings: LinkSettings(baud: baud))
    }

    public init(path: String, settings: LinkSettings) throws(LinkError) {
        let baud = settings.baud
        name = path
        var p: OpaquePointer?
        try SerialPortLink.check(sp_get_port_by_name(path, &p), path: path, operation: "look up")
        guard let p else { throw .noSuchPort(path: path, available: PortPaths.existing()) }
        port = p
        do throws(LinkError) {
            try SerialPortLink.check(sp_open(p, SP_MODE_READ_WRITE), path: path, operation: "open")
            var handle: Int32 = -1
            try SerialPortLink.check(sp_get_port_handle(p, &handle), path: path, operation: "get handle of")
            fd = handle
            if flock(fd, LOCK_EX | LOCK_NB) != 0 { throw LinkError.busy(path: path) }
            // No other program may open the port while we play (root still can); see TTYLink for ptys.
            if !PortOpener.isPseudoTerminal(path: path) { _ = mb_tty_set_exclusive(fd, 1) }
            guard LinkSettings.baudRange.contains(baud), sp_set_baudrate(p, Int32(baud)) == SP_OK else {
                throw LinkError.unsupportedBaud(path: path, baud: baud)
            }
            // A driver that cannot report its rate (0) is trusted; one that reports a far-off rate is not.
            let got = Int(mb_tty_get_baud(handle))
            if got > 0 && !settings.accepts(actualBaud: got) { throw LinkError.unsupportedBaud(path: path, baud: baud) }
            try SerialPortLink.check(sp_set_bits(p, 8), path: path, operation: "set 8 data bits on")
            try SerialPortLink.check(sp_set_parity(p, SP_PARITY_NONE), path: path, operation: "set no parity on")
            try SerialPortLink.check(sp_set_stopbits(p, 1), path: path, operation: "set 1 stop bit on")
            try SerialPortLink.check(sp_set_flowcontrol(p, SP_FLOWCONTROL_NONE), path: path,
                                     operation: "disable flow control on")
            try SerialPortLink.check(sp_flush(p, SP_BUF_BOTH), path: path, operation: "flush")
            try apply(settings)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Turns a libserialport return code into a LinkError (SP_ERR_FAIL carries the OS errno).
    static func check(_ r: sp_return, path: String, operation: String) throws(LinkError) {
        switch r {
        case SP_OK:
            return
        case SP_ERR_FAIL:
            throw LinkError.from(errno: sp_last_error_code(), path: path, operation: operation)
        case SP_ERR_SUPP:
            throw .os(path: path, operation: operation, errno: 0, message: "not supported by this port")
        case SP_ERR_MEM:
            throw .os(path: path, operation: operation, errno: ENOMEM, message: "out of memory")
        default:
            if operation == "look up" {
                // libserialport knows only devices with a tty class entry in sysfs.
                if PortOpener.isPseudoTerminal(path: path) {
                    throw .driverCannotOpen(path: path, reason: "libserialport cannot open pseudo-terminals (use --driver auto or termios)")
                }
                if access(path, F_OK) == 0 { throw .notASerialPort(path: path) }
                throw .noSuchPort(path: path, available: PortPaths.existing())
            }
            throw .os(path: path, operation: operation, errno: EINVAL, message: "invalid argument")
        }
    }

    /// The output rate the driver holds (what the adapter was really set to).
    public var baudRate: Int { Int(mb_tty_get_baud(lock.withLock { fd })) }

    public func setDTR(_ on: Bool) throws(LinkError) {
        guard let p = lock.withLock({ port }) else { throw .closed }
        try SerialPortLink.check(sp_set_dtr(p, on ? SP_DTR_ON : SP_DTR_OFF), path: name, operation: "set DTR on")
    }

    public func setRTS(_ on: Bool) throws(LinkError) {
        guard let p = lock.withLock({ port }) else { throw .closed }
        try SerialPortLink.check(sp_set_rts(p, on ? SP_RTS_ON : SP_RTS_OFF), path: name, operation: "set RTS on")
    }

    public func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError) {
        let (p, fd) = lock.withLock { (port, self.fd) }
        guard let p else { throw .closed }
        var offset = 0
        let deadline = MonotonicClock.nowNs() + UInt64(timeoutMs) * 1_000_000
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { sp_nonblocking_write(p, $0.baseAddress! + offset, bytes.count - offset) }
            if n.rawValue < 0 {
                try SerialPortLink.check(n, path: name, operation: "write")
            }
            offset += Int(n.rawValue)
            if offset == bytes.count { break }
            let now = MonotonicClock.nowNs()
            guard now < deadline else { throw .writeTimeout(path: name) }
            var pf = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&pf, 1, Int32(min(100, (deadline - now) / 1_000_000 + 1)))
        }
    }

    public func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        let (p, fd) = lock.withLock { (port, self.fd) }
        guard let p else { throw .closed }
        // libserialport's own sp_wait cannot be woken; poll the port's handle next to a self-pipe instead.
        let revents = waker.poll(fd, events: Int16(POLLIN), timeoutMs: timeoutMs)
        if revents <= 0 { return [] }  // timeout, woken, or EINTR: the caller loops and checks for shutdown
        if revents & Int16(POLLIN) == 0 && revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            throw .disconnected(path: name)
        }
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        let n = buffer.withUnsafeMutableBytes { sp_nonblocking_read(p, $0.baseAddress!, maxBytes) }
        if n.rawValue < 0 { try SerialPortLink.check(n, path: name, operation: "read") }
        // Readable but no bytes: the device went away (USB unplug).
        if n.rawValue == 0 { throw .disconnected(path: name) }
        return Array(buffer[0..<Int(n.rawValue)])
    }

    /// Waits `timeoutMs` or until `wake()`, not for bytes, then returns what is there without waiting.
    public func readAfterWaiting(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        guard lock.withLock({ port != nil }) else { throw .closed }
        _ = waker.wait(timeoutMs: timeoutMs)
        return try read(maxBytes: maxBytes, timeoutMs: 0)
    }

    public func wake() { waker.wake() }

    public func close() {
        waker.wake()
        lock.withLock {
            if let p = port {
                if fd >= 0 { _ = flock(fd, LOCK_UN) }
                sp_close(p)
                sp_free_port(p)
                port = nil
                fd = -1
            }
        }
    }
}
