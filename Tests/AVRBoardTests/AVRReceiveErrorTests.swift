// The AVR firmware's UART error flags (finding A6): a byte received with a framing error is counted in
// STATUS rx_other_errors. simavr never sets FE0 itself: the harness injects it (--rx-error-at N) on the
// Nth byte the firmware reads, leaving the byte intact, so the frame still checks and only the flag counts.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorSession
import MotorWire
import SerialLink
import TestSupport
import Testing

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(5))) struct AVRReceiveErrorTests {
    func otherErrors(options: [String]) throws -> (other: UInt16, crc: UInt16) {
        let board = try AVRBoard(options: options)
        defer { board.remove() }
        let link = try PortOpener.open(path: board.port, baud: avrBaud)
        defer { link.close() }
        let channel = BoardChannel(link: link)
        _ = try channel.hello(timeoutMs: 2000)
        let seq = try channel.send(.heartbeat)
        let s = try channel.waitFor("STATUS", timeoutMs: 2000) { m throws(SessionError) -> Status? in
            if case .status(let s) = m, s.ackSeq == seq { return s }
            return nil
        }
        return (s.rxOtherErrors, s.rxCRCErrors)
    }

    @Test func aFramingErrorIsCountedInRxOtherErrors() throws {
        let clean = try otherErrors(options: [])
        let injected = try otherErrors(options: ["--rx-error-at", "3"])
        print("AVR receive errors: rx_other_errors \(clean.other) without, \(injected.other) with one FE0 injected "
              + "(rx_crc_errors \(clean.crc), \(injected.crc))")
        #expect(clean.other == 0 && clean.crc == 0)
        #expect(injected.other == 1 && injected.crc == 0)
    }
}
