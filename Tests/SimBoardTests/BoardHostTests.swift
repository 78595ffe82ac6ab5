// The simulated board's host on its own: boot announces INFO, a reboot keeps every boot's clock and the
// frames played before it, an unplug and a bootloader end in a reboot at their end (not before), the
// bootloader's noise comes from the world's draws, a stalled board or a foreign firmware asks for no wake.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorWire
@testable import SimBoard
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct BoardHostTests {
    func host(_ firmware: SimBoardFirmware? = nil) -> BoardHost {
        BoardHost(spec: SimBoardSpec(), impairments: LinkImpairments(), pacing: .virtual, now: .zero, firmware: firmware)
    }

    func messages(_ chunks: [[UInt8]]) -> [BoardMessage] {
        var decoder = FrameDecoder()
        var out: [BoardMessage] = []
        for b in chunks.joined() {
            if case .packet(let p)? = decoder.push(b), let m = try? BoardMessage(p) { out.append(m) }
        }
        return out
    }

    @Test func bootAnnouncesTheBoard() {
        let h = host()
        var sent: [[UInt8]] = []
        h.boot(now: .zero) { sent.append($0) }
        let first = messages(sent).first
        guard case .info(let info)? = first else { Issue.record("no INFO at boot: \(String(describing: first))"); return }
        #expect(info == SimBoardSpec().info && info.capabilitySet == [.reverse, .replace])
    }

    @Test func aRebootKeepsEveryBootsClock() {
        let h = host()
        h.boot(now: .zero) { _ in }
        var sent: [[UInt8]] = []
        h.reboot(now: HostNanos(2_000_000_000)) { sent.append($0) }
        #expect(h.boots == 1 && h.clockHistory.count == 2)
        #expect(h.clock.bootNs == 2_000_000_000 && h.clockHistory[1].bootNs == 2_000_000_000)
        #expect(h.clock.offsetTicks != h.clockHistory[0].offsetTicks, "a new, unrelated count")
        #expect(h.board.port.boot == 1)
        if case .info? = messages(sent).first {} else { Issue.record("no INFO after the reboot") }
    }

    @Test func anUnplugEndsInARebootWhenTheCableIsBack() {
        let h = host()
        h.boot(now: .zero) { _ in }
        h.unplug(now: HostNanos(1_000), until: HostNanos(5_000))
        #expect(h.unplugged && h.outageEnds == HostNanos(5_000))
        var sent = 0
        h.endOutages(now: HostNanos(4_999)) { _ in sent += 1 }
        #expect(h.unplugged && h.boots == 0 && sent == 0)
        h.endOutages(now: HostNanos(5_000)) { _ in sent += 1 }
        #expect(!h.unplugged && h.boots == 1 && sent == 1 && h.outageEnds == nil)
    }

    @Test func theBootloaderPrintsNoiseFromTheDrawsAndAnswersInSTK500() {
        let h = host()
        h.boot(now: .zero) { _ in }
        var draws = SplitMix64(seed: 5)
        var mirror = SplitMix64(seed: 5)
        let noise = h.enterBootloader(now: .zero, until: HostNanos(1_600_000_000), draws: &draws)
        let expected = (0..<96).map { _ in UInt8(truncatingIfNeeded: mirror.next()) } + [0x00, 0x14, 0x10, 0x00, 0x15, 0x00]
        #expect(noise == expected)
        #expect(draws.next() == mirror.next(), "96 draws, no more")
        #expect(h.inBootloader && h.nextWake(now: .zero) == nil)
        #expect(h.bootloaderAnswer(to: [1, 2, 3]) == [0x14, 0x10])
        h.endOutages(now: HostNanos(1_600_000_000)) { _ in }
        #expect(!h.inBootloader && h.boots == 1)
    }

    @Test func aStalledBoardAsksForNoWake() {
        let h = host()
        h.boot(now: .zero) { _ in }
        h.stalled = true
        #expect(h.nextWake(now: .zero) == nil)
    }

    /// A booted board in real-time pacing with a sensor on a motor whose x acceleration is its drive.
    func sensingHost() -> BoardHost {
        var spec = SimBoardSpec()
        spec.physicalMotor = DriveOnX()
        spec.accelerometer = quietAccelerometer()
        let h = BoardHost(spec: spec, impairments: LinkImpairments(), pacing: .realTime, now: .zero)
        h.boot(now: .zero) { _ in }
        return h
    }

    /// `m` as the host sends it, with sequence number `seq`.
    func bytes(_ m: HostMessage, _ seq: UInt8) -> [UInt8] {
        var wire = FixedBytes()
        _ = m.encode(seq: seq, into: &wire)
        return (0..<wire.count).map { wire[$0] }
    }

    /// Real-time pacing after a 200 ms late wake (the process descheduled): every sample due meanwhile goes
    /// out, batch by batch, none lost; the outbox's 8 places would hold five of the 34 batches at once.
    @Test func aLateWakeLosesNoSamples() {
        let h = sensingHost()
        var sent: [[UInt8]] = []
        h.receive(bytes(.sense(rateHz: 1000, axes: Sense.axisX | Sense.axisY, batch: 6), 1), at: BoardTicks(h.clock.ticks(atHostNs: 0))) { sent.append($0) }
        h.service(now: .zero) { sent.append($0) }
        h.service(now: HostNanos(200_000_000)) { sent.append($0) }
        let batches = messages(sent).compactMap { m -> SampleBatch? in if case .samples(let b) = m { b } else { nil } }
        #expect(batches.count == 33 && batches.allSatisfy { $0.lost == 0 }, "\(batches.count) batches, lost \(batches.map(\.lost))")
        #expect(batches.map(\.seq) == (0..<UInt16(batches.count)).map { $0 })
    }

    /// Twelve HEARTBEATs in one chunk (this process woken late, the host's writes piled up) while sampling:
    /// twelve STATUS answers and every batch out; handled all at once, the replies would fill the outbox's
    /// 8 places, lose four of their own and crowd out the samples.
    @Test func aBurstOfMessagesCrowdsOutNoReplyAndNoSample() {
        let h = sensingHost()
        var sent: [[UInt8]] = []
        h.receive(bytes(.sense(rateHz: 1000, axes: Sense.axisX, batch: 6), 1), at: BoardTicks(h.clock.ticks(atHostNs: 0))) { sent.append($0) }
        h.service(now: .zero) { sent.append($0) }
        let late = HostNanos(30_000_000)
        let burst = (0..<12).flatMap { bytes(.heartbeat, UInt8(2 + $0)) }
        h.receive(burst, at: BoardTicks(h.clock.ticks(atHostNs: late.ns))) { sent.append($0) }
        h.service(now: late) { sent.append($0) }
        let got = messages(sent)
        let statuses = got.filter { if case .status = $0 { true } else { false } }.count
        let batches = got.compactMap { m -> SampleBatch? in if case .samples(let b) = m { b } else { nil } }
        #expect(statuses == 12, "\(statuses) STATUS for 12 HEARTBEATs")
        #expect(batches.count == 5 && batches.allSatisfy { $0.lost == 0 }, "\(batches.count) batches, lost \(batches.map(\.lost))")
    }

    final class Tap: SimBoardFirmware {
        var got: [(bytes: [UInt8], tick: UInt64)] = []
        func received(_ bytes: [UInt8], at tick: UInt64) { got.append((bytes, tick)) }
    }

    /// A foreign firmware gets every chunk with its tick; BoardCore never boots, sends or wakes.
    @Test func aForeignFirmwareOnlyListens() {
        let tap = Tap()
        let h = host(tap)
        var sent = 0
        h.boot(now: .zero) { _ in sent += 1 }
        h.receive([1, 2, 3], at: BoardTicks(42)) { _ in sent += 1 }
        h.service(now: .zero) { _ in sent += 1 }
        #expect(tap.got.count == 1 && tap.got[0].bytes == [1, 2, 3] && tap.got[0].tick == 42)
        #expect(sent == 0 && h.nextWake(now: .zero) == nil && h.board.state == .idle)
    }
}
