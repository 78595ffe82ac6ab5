// `motorbreath selftest --loopback`: checks a USB-UART adapter with TX wired to RX.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Playback
import BoardAccess
import Foundation
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
        if json {
            try printJSON(r)
        } else {
            let limit = r.theoreticalBytesPerSecond.map { " of \(Int($0)) B/s possible at \(baud) baud (\(fixed(100 * r.bytesPerSecond / $0, 0)) %)" } ?? " (pseudo-terminal: no baud limit)"
            print("port        \(port) via \(r.driver)")
            print("throughput  \(Int(r.bytesPerSecond)) B/s\(limit)")
            print("verified    \(r.bytes) bytes, \(r.mismatchedBytes) wrong, \(r.missingBytes) missing")
            if let mn = r.rttUs["min"], let p50 = r.rttUs["p50"], let p99 = r.rttUs["p99"] {
                print("round trip  min \(fixed(mn, 0)) µs, median \(fixed(p50, 0)) µs, p99 \(fixed(p99, 0)) µs (\(r.lostPings) of \(r.pings) lost)")
            }
        }
        if r.mismatchedBytes > 0 || r.missingBytes > 0 || r.lostPings > 0 {
            throw fail("loopback errors: check the TX-RX wire and the baud rate")
        }
    }
}
