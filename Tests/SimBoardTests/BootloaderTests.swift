// An Arduino-style board that resets when the port opens: its bootloader owns the UART for a while,
// prints noise and answers in STK500. Prepare must wait for the real firmware and lose nothing.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import MotorWire
import SerialLink
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct BootloaderTests {
    func usbLink() -> LinkImpairments {
        var l = LinkImpairments()
        l.latencyNs = 1_000_000
        l.jitterNs = 500_000
        return l
    }

    @Test func prepareWaitsOutTheBootloaderAndIgnoresItsNoise() throws {
        let world = SimWorld(impairments: usbLink(), pacing: .virtual)
        world.bootloader(forNs: 1_600_000_000)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        let prepared = try channel.prepare(options: SessionOptions())
        // Virtual time: the answer came from the firmware after the 1.6 s bootloader, not before.
        #expect(prepared.prepareNs >= 1_600_000_000)
        #expect(prepared.prepareNs < 3_000_000_000)
        #expect(world.boots == 1)
        #expect(prepared.info.protocolVersion == Wire.version)
        // The bootloader's bytes were seen and thrown away by the decoder, not taken for messages.
        #expect(channel.rxErrors.total > 0)
    }

    @Test func aBootloaderLongerThanTheBootWaitIsOneClearError() throws {
        let world = SimWorld(impairments: usbLink(), pacing: .virtual)
        world.bootloader(forNs: 5_000_000_000)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var options = SessionOptions()
        options.helloTimeoutMs = 2000
        #expect {
            _ = try channel.prepare(options: options)
        } throws: { error in
            guard case SessionError.noHello(_, let ms) = error else { return false }
            return ms == 2000 && !"\(error)".contains("\n")
        }
    }
}
