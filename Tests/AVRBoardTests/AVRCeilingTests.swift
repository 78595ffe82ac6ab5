// The AVR board's drive ceiling at the PWM pins (simavr): a host that ignores LIMITS and sends full drive
// gets at most the overdrive budget above rated / supply voltage, and then the ceiling, whatever it sends.
// The oracle is the motor's rating from the bill of materials (hardware/avr/README.md) and a leaky bucket
// run over the pin's high times, not the firmware's own rule.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorSession
import MotorWire
import SerialLink
import TestSupport
import Testing

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(10))) struct AVRCeilingTests {
    /// Per variant: the motor's rated and supply voltage (parts table) and the overdrive budget and
    /// recovery the firmware is built with (board.h, the same as the STM32 board's Board.swift).
    struct Motor: Sendable, CustomStringConvertible {
        var variant: String, ratedMv: Int, supplyMv: Int, overdriveMs: Int, recoveryMs: Int
        /// Full drive is reverse (i16 -32767, CONFIGURE allowing reverse: on D10) rather than u8 255 (D9).
        var reverse = false
        var description: String { variant + (reverse ? " reverse" : "") }
        /// The ceiling's high time per 800-cycle PWM period.
        var ceilingHigh: Int { (ratedMv * 800 + supplyMv / 2) / supplyMv }
    }

    static let motors = [
        Motor(variant: "erm", ratedMv: 3000, supplyMv: 5000, overdriveMs: 50, recoveryMs: 500),
        Motor(variant: "lra", ratedMv: 2000, supplyMv: 5000, overdriveMs: 20, recoveryMs: 200),
        Motor(variant: "erm-hbridge", ratedMv: 3000, supplyMv: 5000, overdriveMs: 50, recoveryMs: 500, reverse: true),
    ]

    /// 250 frames at 250 Hz: 150 at full drive (600 ms, longer than budget + recovery), then 10 full /
    /// 3 off over and over (trying to live on the refill). No PIN period may go above the ceiling beyond
    /// what a leaky bucket of the budget, refilled at budget / recovery, allows.
    @Test(arguments: motors)
    func fullDriveIsHeldToTheCeilingAtThePin(motor: Motor) throws {
        let board = try AVRBoard(variant: motor.variant)
        defer { board.remove() }
        let link = try PortOpener.open(path: board.port, baud: avrBaud)
        defer { link.close() }
        let channel = BoardChannel(link: link)
        let info = try channel.hello(timeoutMs: 2000)
        #expect(info.capabilities & Info.capLimits != 0, "INFO capability bit 2")
        _ = try channel.send(.limitsRequest)
        let limits = try channel.waitFor("LIMITS", timeoutMs: 2000) { m throws(SessionError) -> Limits? in
            if case .limits(let l) = m { return l }
            return nil
        }
        #expect(Int(limits.ceilingLevel) == motor.ratedMv * 32767 / motor.supplyMv)
        #expect(Int(limits.overdriveMs) == motor.overdriveMs && Int(limits.recoveryMs) == motor.recoveryMs)
        #expect(Int(limits.ratedMillivolts) == motor.ratedMv && Int(limits.supplyMillivolts) == motor.supplyMv)
        #expect(limits.availableMs == limits.overdriveMs)

        let format: DutyFormat = motor.reverse ? .i16 : .u8
        let full: UInt16 = motor.reverse ? UInt16(bitPattern: -32767) : 255
        _ = try channel.configure(Configure(frameRateHz: 250, dutyFormat: format, failsafeMs: 2000, flags: motor.reverse ? 1 : 0,
                                            reportEvery: 50), timeoutMs: 500)
        var raws: [UInt16] = []
        for i in 0..<250 { raws.append(i < 150 || (i - 150) % 13 < 10 ? full : 0) }
        for first in stride(from: 0, to: 250, by: 50) {
            var values = DutyValues()
            for r in raws[first..<first + 50] { _ = values.append(r) }
            _ = try channel.send(.frames(FramesBlock(firstIndex: UInt32(first), format: format, values: values)))
        }
        let now = try channel.clockSample(token: 7, timeoutMs: 500).tick
        let start = Start(anchorIndex: 0, anchorTick: now + 1_600_000, periodQ32: UInt64(64_000) << 32)
        _ = try channel.send(.start(start))
        _ = try channel.send(.stop(atIndex: 250))
        _ = try channel.waitFor("the deferred STOP's STATUS", timeoutMs: 5000) { m throws(SessionError) -> Status? in
            if case .status(let s) = m, s.ackSeq == 0 { return s }
            return nil
        }
        board.stop()

        let record = try board.record()
        #expect(record.resets.isEmpty)
        let first = Int(FramesAtPin.due(start.timebase, 0) / 800), end = Int(FramesAtPin.due(start.timebase, 250) / 800) + 4
        let a = record.highTimes(pin: "A", periods: end), b = record.highTimes(pin: "B", periods: end)
        var high: [Int] = []
        for k in 0..<end { high.append(Int(max(a[k], b[k]))) }
        if motor.reverse { #expect(a.allSatisfy { $0 == 0 } && b.contains { $0 > 0 }, "reverse drive is on D10 only") }
        let c = motor.ceilingHigh
        let budget = Double(motor.overdriveMs) * 20, refill = Double(motor.overdriveMs) / Double(motor.recoveryMs)
        var bucket = budget, lowest = budget, run = 0, longest = 0, above = 0
        for h in high {
            if h > c {
                bucket -= 1
                run += 1
                above += 1
                longest = max(longest, run)
            } else {
                bucket = min(budget, bucket + refill)
                run = 0
            }
            lowest = min(lowest, bucket)
        }
        // From the first budget's end until the recovery time has earned it back, the host still wants
        // full drive and the pin is exactly at the ceiling (the LRA's carrier: on one pin or the other).
        let held = high[(first + Int(budget) + 10)..<(first + Int(budget) + motor.recoveryMs * 20 - 10)]
        print("AVR \(motor) ceiling at the pin: ceiling \(c)/800, \(above) periods above it, longest run \(longest) "
              + "(budget \(Int(budget))), leaky bucket lowest \(lowest), held periods \(Set(held).sorted())")
        #expect(longest >= Int(budget) - 2, "the overdrive budget was not used: longest run \(longest)")
        #expect(longest <= Int(budget) + 2, "a run of \(longest) periods above the ceiling")
        #expect(lowest >= -2, "above the ceiling for more than the budget allows: bucket \(lowest) periods")
        #expect(held.allSatisfy { abs($0 - c) <= 1 }, "\(Set(held).sorted())")
        #expect(high.suffix(3).allSatisfy { $0 == 0 })
    }
}
