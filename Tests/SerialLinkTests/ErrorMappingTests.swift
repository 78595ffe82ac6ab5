// The errors a user meets, one line each with the fix, and the tty links on a real pty.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import SerialLink
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct ErrorMappingTests {
    @Test func eachErrnoBecomesTheRightOneLiner() {
        let path = "/dev/ttyUSB7"
        #expect("\(LinkError.from(errno: ENOENT, path: path, operation: "open"))".hasPrefix("no such port /dev/ttyUSB7"))
        #expect("\(LinkError.from(errno: EACCES, path: path, operation: "open"))".contains("udev rules"))
        #expect("\(LinkError.from(errno: EBUSY, path: path, operation: "open"))".contains("busy"))
        #expect(LinkError.from(errno: EIO, path: path, operation: "read") == .disconnected(path: path))
        #expect(LinkError.from(errno: ENXIO, path: path, operation: "read") == .disconnected(path: path))
        #expect(LinkError.from(errno: ENOTTY, path: path, operation: "open") == .notASerialPort(path: path))
        for e in [LinkError.noSuchPort(path: path, available: []), .permissionDenied(path: path), .busy(path: path),
                  .disconnected(path: path), .unsupportedBaud(path: path, baud: 123), .writeTimeout(path: path),
                  .driverCannotOpen(path: path, reason: "why")] {
            #expect(!"\(e)".contains("\n"))
        }
    }

    @Test func openingErrorsOnRealPaths() throws {
        #expect(throws: LinkError.self) { try PortOpener.open(path: "/nonexistent/tty") }
        #expect(throws: LinkError.notASerialPort(path: "/dev/null")) { try PortOpener.open(path: "/dev/null") }
        let pty = try PseudoTerminal()
        for baud in [0, 49, 50_000_000] {
            #expect(throws: LinkError.unsupportedBaud(path: pty.slavePath, baud: baud)) { try TTYLink(path: pty.slavePath, baud: baud) }
        }
        // Without the test shim, libserialport refuses a pty: the error says so and names the way out.
        let forced = LinkSettings(driver: .libserialport)
        #expect(throws: LinkError.driverCannotOpen(path: pty.slavePath,
                                                   reason: "libserialport cannot open pseudo-terminals (use --driver auto or termios)")) {
            try PortOpener.open(path: pty.slavePath, settings: forced)
        }
    }

    @Test(arguments: [250_000, 500_000, 1_000_000, 2_000_000, 74_880])
    func anyBaudRateReachesTheDriver(baud: Int) throws {
        // 250000 and 74880 have no termios constant: they go through termios2/BOTHER; the driver's own
        // copy of the settings is read back, so this fails if the rate was silently replaced.
        let pty = try PseudoTerminal()
        let link = try TTYLink(path: pty.slavePath, baud: baud)
        defer { link.close() }
        #expect(link.baudRate == baud)
    }

    @Test func modemLinesOnAPtyAreANoOpNotAnError() throws {
        let pty = try PseudoTerminal()
        let link = try TTYLink(path: pty.slavePath, settings: LinkSettings(dtr: false, rts: true))
        defer { link.close() }
        #expect(link.isPseudoTerminal)
        try link.setDTR(true)
        try link.pulseReset(ms: 1)
    }

    @Test func asecondOpenOfTheSamePortIsBusy() throws {
        let pty = try PseudoTerminal()
        let first = try PortOpener.open(path: pty.slavePath)
        defer { first.close() }
        #expect(throws: LinkError.busy(path: pty.slavePath)) { try PortOpener.open(path: pty.slavePath) }
    }

    @Test func ptyLoopbackThroughTheTermiosPath() throws {
        let pty = try PseudoTerminal()
        let link = try PortOpener.open(path: pty.slavePath, baud: 1_000_000)
        defer { link.close() }
        let payload = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try link.write(payload)
        var got: [UInt8] = []
        while got.count < payload.count {
            let chunk = try pty.read(maxBytes: 8192, timeoutMs: 1000)
            if chunk.isEmpty { break }
            got += chunk
        }
        #expect(got == payload)
        try pty.write([1, 2, 3])
        #expect(try link.read(maxBytes: 16, timeoutMs: 1000) == [1, 2, 3])
        #expect(try link.read(maxBytes: 16, timeoutMs: 20) == [])  // a read times out, never hangs
    }

    @Test func listedPortsAreRealCharacterDevices() throws {
        let ports = try PortDiscovery.list()
        // (What must be listed is checked against sysfs in CommandLineTests; here: what is listed is real.)
        for p in ports {
            var st = stat()
            #expect(stat(p.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "\(p.path)")
        }
    }
}
