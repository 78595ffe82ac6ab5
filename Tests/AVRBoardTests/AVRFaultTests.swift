// The AVR firmware's fault path in simavr: test builds (make fault-tests) that fault once, 50 frames into a
// playback, by hanging the main loop, hanging with interrupts off, or overwriting the stack guard. The
// outputs must go low, and the board must come back and answer, also on a Nano with the old bootloader
// (the harness's --old-bootloader model: a watchdog reset there is a reset every 16 ms until unplugged).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorSession
import MotorWire
import SerialLink
import TestSupport
import Testing

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(10))) struct AVRFaultTests {
    struct Outcome {
        var record: PinRecord
        var due50Cycle: UInt64       // when frame 50 was due (the fault comes as it is handed out, 4 ms before)
        var answered: Info?          // HELLO after the fault
        var bootInfos: Int           // INFO messages the board sent unasked after the fault
    }

    /// Plays frames at raw 100 (314/800 at the pin) until the build faults, then waits for the board.
    /// `stopAfterMs`: sends STOP now this long after the START (frame 50 is due 300 ms after it).
    func faultDuringPlayback(_ build: String, options: [String] = [], stopAfterMs: Int? = nil) throws -> Outcome {
        let board = try AVRBoard(variant: build, options: options)
        defer { board.remove() }
        let link = try PortOpener.open(path: board.port, baud: avrBaud)
        defer { link.close() }
        let channel = BoardChannel(link: link)
        _ = try channel.hello(timeoutMs: 2000)
        _ = try channel.configure(Configure(frameRateHz: 250, dutyFormat: .u8, failsafeMs: 2000, flags: 0, reportEvery: 0),
                                  timeoutMs: 500)
        var values = DutyValues()
        for _ in 0..<100 { _ = values.append(100) }
        _ = try channel.send(.frames(FramesBlock(firstIndex: 0, format: .u8, values: values)))
        let now = try channel.clockSample(token: 1, timeoutMs: 500).tick
        let start = Start(anchorIndex: 0, anchorTick: now + 1_600_000, periodQ32: UInt64(64_000) << 32)
        _ = try channel.send(.start(start))
        if let stopAfterMs {
            usleep(UInt32(stopAfterMs * 1000))
            _ = try channel.send(.stop(atIndex: HostMessage.stopNow))
        }
        // Frame 50 is due 300 ms after the START; the slowest path (the watchdog reset) takes 500 ms more.
        var bootInfos = 0
        _ = try? channel.waitFor("nothing", timeoutMs: 1500) { m throws(SessionError) -> Bool? in
            if case .info = m { bootInfos += 1 }
            return nil
        }
        let answered = try? channel.hello(timeoutMs: 1500)
        board.stop()
        let record = try board.record()
        let t0 = try #require(record.timerStarts.first)
        return Outcome(record: record, due50Cycle: t0 + UInt64(FramesAtPin.due(start.timebase, 50)),
                       answered: answered, bootInfos: bootInfos)
    }

    /// The pin drove the frames before the fault, went low within `withinMs` of frame 50's due tick and
    /// never rose again.
    func checkPin(_ o: Outcome, withinMs: Double) {
        let edges = o.record.edges["A"]!
        let risesBefore = edges.filter { $0.level == 1 && $0.cycle < o.due50Cycle - 100_000 }.count
        let lastRise = edges.last { $0.level == 1 }?.cycle ?? 0
        let lowFrom = edges.last { $0.level == 0 }?.cycle ?? 0
        let lowAfterMs = (Double(lowFrom) - Double(o.due50Cycle)) / 16_000
        print("  pin: \(risesBefore) pulses before the fault, low for good \(lowAfterMs) ms after frame 50 was due")
        #expect(risesBefore > 1000, "the frames reached the pin before the fault")
        #expect(lowFrom > lastRise && edges.last?.level == 0)
        #expect(lowAfterMs > -10 && lowAfterMs < withinMs, "\(lowAfterMs) ms")
    }

    @Test(arguments: [[], ["--old-bootloader"]])
    func aHungMainLoopRestartsWithoutAWatchdogReset(options: [String]) throws {
        let o = try faultDuringPlayback("fault-hang", options: options)
        print("AVR fault-hang \(options): restarts \(o.record.timerStarts.count - 1), resets \(o.record.resets.count), "
              + "boot loops \(o.record.bootLoops.count), INFO unasked \(o.bootInfos), HELLO answered \(o.answered != nil)")
        // The watchdog interrupt (250 ms after the last feed, ~4 ms before frame 50) restarts the firmware.
        checkPin(o, withinMs: 300)
        #expect(o.record.resets.isEmpty && o.record.bootLoops.isEmpty)
        #expect(o.record.timerStarts.count == 2)
        #expect(o.bootInfos == 1)
        #expect(o.answered?.name.text == "motorbreath-avr-erm")
    }

    @Test(arguments: [[], ["--old-bootloader"]])
    func anOverwrittenStackGuardRestarts(options: [String]) throws {
        let o = try faultDuringPlayback("fault-stack", options: options)
        print("AVR fault-stack \(options): restarts \(o.record.timerStarts.count - 1), resets \(o.record.resets.count), "
              + "boot loops \(o.record.bootLoops.count), INFO unasked \(o.bootInfos), HELLO answered \(o.answered != nil)")
        checkPin(o, withinMs: 5)  // at the next main-loop pass
        #expect(o.record.resets.isEmpty && o.record.bootLoops.isEmpty)
        #expect(o.record.timerStarts.count == 2)
        #expect(o.bootInfos == 1)
        #expect(o.answered?.name.text == "motorbreath-avr-erm")
    }

    /// A hang with interrupts off: only the watchdog's reset gets out of it (250 ms, then 250 ms more).
    /// With Optiboot the firmware then starts and answers; with the old bootloader the chip stays in its
    /// reset loop, outputs low, until unplugged (hardware/REVIEW.md, A2): the one case left.
    @Test(arguments: [[], ["--old-bootloader"]])
    func aHangWithInterruptsOffEndsInAWatchdogReset(options: [String]) throws {
        let o = try faultDuringPlayback("fault-cli", options: options)
        let old = options.contains("--old-bootloader")
        print("AVR fault-cli \(options): restarts \(o.record.timerStarts.count - 1), resets \(o.record.resets.count), "
              + "boot loops \(o.record.bootLoops.count), INFO unasked \(o.bootInfos), HELLO answered \(o.answered != nil)")
        checkPin(o, withinMs: 560)
        #expect(o.record.resets.count == 1)
        #expect(o.record.bootLoops.count == (old ? 1 : 0))
        #expect(o.record.timerStarts.count == (old ? 1 : 2))
        #expect((o.answered != nil) == !old)
    }

    /// The Timer1 interrupt stops (TIMSK1 cleared) with the output on: a STOP then waits for an output
    /// stage that never answers. The wait is bounded (1000 x 1 us, with the loop about 2.5 ms) and ends in the fault path, instead of feeding
    /// the watchdog for ever with the motor on (finding A5).
    @Test func aStopWaitingForAStoppedTimerRestarts() throws {
        let o = try faultDuringPlayback("fault-timer", stopAfterMs: 340)
        let stop = try #require(o.record.hostMessages().last { if case .stop = $0.message { return true }; return false })
        let edges = o.record.edges["A"]!
        let lowFrom = edges.last { $0.level == 0 }?.cycle ?? 0
        let afterStopMs = (Double(lowFrom) - Double(stop.delivered)) / 16_000
        print("AVR fault-timer: STOP reached the firmware \((Double(stop.delivered) - Double(o.due50Cycle)) / 16_000) ms after "
              + "frame 50 was due; pin low for good \(afterStopMs) ms after it; restarts \(o.record.timerStarts.count - 1), "
              + "resets \(o.record.resets.count), HELLO answered \(o.answered != nil)")
        #expect(edges.last?.level == 0)
        #expect(afterStopMs > 0 && afterStopMs < 5, "\(afterStopMs) ms")
        #expect(o.record.resets.isEmpty && o.record.timerStarts.count == 2)
        #expect(o.answered?.name.text == "motorbreath-avr-erm")
    }
}
