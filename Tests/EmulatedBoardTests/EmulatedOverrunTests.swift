// A USART overrun reaches the host (S1/S5 of the firmware review): QEMU's USART never overruns, so the
// firmware's --inject-overrun build loses its 100th received byte the way silicon does (the byte never
// reaches the interrupt, ORE is set with the next one). STATUS's rx_lost_bytes (protocol.md revision
// 1.3) then says 1 to a host that named revision 1.3, and the frame the byte belonged to is counted
// as a receive error; a host that named no revision gets the 42-byte STATUS it knows.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorSession
import MotorWire
import SerialLink
import Testing

extension EmulatedBoardTests {
    @Test func anInjectedOverrunIsReportedInStatus() throws {
        let board = try EmulatedBoard(injectOverrun: true)
        defer { board.stop() }
        let link = try PortOpener.open(path: board.port)
        defer { link.close() }
        let channel = BoardChannel(link: link)
        _ = try channel.hello(timeoutMs: 5000)
        let info = try #require(try channel.announcedInfo(), "the firmware should announce its revision")
        #expect(info.revision == Wire.revision)

        /// HEARTBEAT and its STATUS, or nil when the board did not answer (its frame lost a byte).
        func heartbeat() throws -> Status? {
            let seq = try channel.send(.heartbeat)
            do {
                return try channel.waitFor("STATUS", timeoutMs: 1000) { m -> Status? in
                    if case .status(let s) = m, s.ackSeq == seq { return s }
                    return nil
                }
            } catch {
                if case .timeout = error { return nil }
                throw error
            }
        }
        // Well before the 100th byte: nothing lost, nothing dropped.
        let first = try #require(try heartbeat())
        #expect(first.rxLostBytes == 0 && first.rxCRCErrors == 0 && first.rxOtherErrors == 0)
        // HEARTBEATs (8 bytes each) past the 100th byte: one goes unanswered (two, if the lost byte was a
        // delimiter and the two frames ran together into one bad block).
        var unanswered = 0
        var last = first
        for _ in 0..<16 {
            if let s = try heartbeat() { last = s } else { unanswered += 1 }
        }
        #expect(last.rxLostBytes == 1, "rx_lost_bytes \(String(describing: last.rxLostBytes)) after the injected overrun")
        #expect((1...2).contains(unanswered) && Int(last.rxCRCErrors) + Int(last.rxOtherErrors) == 1,
                "\(unanswered) HEARTBEATs unanswered, rx_crc_errors \(last.rxCRCErrors), rx_other_errors \(last.rxOtherErrors)")
        // A plain HELLO: the host reads revision 1.1 payloads, STATUS without the field.
        _ = try channel.hello(timeoutMs: 2000)
        let plain = try #require(try heartbeat())
        #expect(plain.rxLostBytes == nil)
    }
}
