// `motorbreath selftest --loopback`: checks a USB-UART adapter with TX wired to RX.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Playback
import BoardAccess
import SerialLink

struct SelftestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Loopback test of a serial adapter (TX wired to RX): verified throughput and latency.",
        discussion: "Streams pseudo-random bytes, checks each one comes back, and times one-byte round trips."
    )

    @Flag(help: "Loopback mode: the port's TX is wired to its RX.")
    var loopback = false

    @OptionGroup(title: "Port (a serial adapter with TX wired to RX, or a pty whose far end echoes)")
    var connection: PortArguments

    @Option(parsing: .unconditional, help: "Seconds of streaming (0.1...600) (default: 2).", transform: OptionValue.double(0.1...600))
    var seconds: Double = 2

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        guard loopback else { throw fail("only --loopback is implemented: wire TX to RX and pass --loopback") }
        let stage = try connection.openStage(quiet: json)
        let board = stage.board
        defer { stage.close() }
        let port = board.portPath ?? "", link = board.link, baud = connection.baud
        let isPty = PortOpener.isPseudoTerminal(path: port)
        var r: LoopbackReport
        do { r = try LoopbackSelfTest.run(link: link, seconds: seconds, baud: isPty ? nil : baud) } catch { throw fail(error) }
        r.driver = link is SerialPortLink ? "libserialport" : "termios"
        r.port = port
        if json { try printJSON(r) } else { print(r.lines(baud: baud).joined(separator: "\n")) }
        if r.mismatchedBytes > 0 || r.missingBytes > 0 || r.lostPings > 0 {
            throw fail("loopback errors: check the TX-RX wire and the baud rate")
        }
    }
}
