// Creates a pseudo-terminal pair: the simulated board holds the master, the host opens the slave path.
// SPDX-License-Identifier: Apache-2.0

import CPosixPty
import Glibc

/// The master side of a new pty; `slavePath` is what the host opens like a serial port.
public final class PseudoTerminal: ByteLink, @unchecked Sendable {
    public let slavePath: String
    public var name: String { "pty master of \(slavePath)" }
    private let tty: FDStream

    public init() throws(LinkError) {
        let master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0,
              ptsname_r(master, &name, name.count) == 0 else {
            throw LinkError.from(errno: errno, path: "/dev/ptmx", operation: "open")
        }
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var tio = termios()
        tcgetattr(master, &tio)
        cfmakeraw(&tio)
        tcsetattr(master, TCSANOW, &tio)
        tty = FDStream(fd: master, name: slavePath)
        // Hold one slave descriptor open ourselves, so the master never reads EIO while the host
        // has not opened the port yet, or between two host sessions.
        heldSlave = Glibc.open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    }

    private let heldSlave: Int32

    deinit { if heldSlave >= 0 { Glibc.close(heldSlave) } }

    public func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError) { try tty.write(bytes, timeoutMs: timeoutMs) }
    public func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        try tty.read(maxBytes: maxBytes, timeoutMs: timeoutMs)
    }
    public func close() { tty.close() }
}
