// Bench tests against a real board on a serial port. They run when MOTORBREATH_BENCH_PORT names the
// port (and MOTORBREATH_BENCH_BAUD its baud rate, default 115200); otherwise they are skipped, and the
// test output says so. See hardware/stm32/README.md, "Testing a board".
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorSession
import MotorWire
import SerialLink
import Testing
import TestSupport

let benchPort = ProcessInfo.processInfo.environment["MOTORBREATH_BENCH_PORT"]
let benchBaud = ProcessInfo.processInfo.environment["MOTORBREATH_BENCH_BAUD"].flatMap(Int.init) ?? 115_200

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10)), .enabled(if: benchPort != nil, "no board attached: set MOTORBREATH_BENCH_PORT=/dev/ttyUSB0 to run the bench tests on real hardware"))
struct RealBoardTests {
    func channel() throws -> BoardChannel {
        let link = try PortOpener.open(path: benchPort!, settings: LinkSettings(baud: benchBaud))
        return BoardChannel(link: link)
    }

    @Test func theBoardAnswersAndDescribesItself() throws {
        let c = try channel()
        defer { c.link.close() }
        let info = try c.hello(timeoutMs: 3000)
        #expect(info.protocolVersion == Wire.version)
        #expect(info.clockHz >= 1_000_000)
        #expect(info.bufferCapacity >= 256)
        #expect(info.minFrameRateHz <= 250 && info.maxFrameRateHz >= 250)
        let status = try c.status(timeoutMs: 500)
        #expect(status.output == 0 || status.state == .playing)
    }

    @Test func benchOnTheRealBoard() throws {
        let c = try channel()
        defer { c.link.close() }
        let r = try Bench.run(channel: c, seconds: 10, baud: benchBaud, port: benchPort!)
        print("real board bench: rtt p50 \(r.rttUs.p50) µs, drift \(r.clockDriftPPM) ppm, schedule p99 \(r.scheduleErrorUs.p99) µs, max rate \(r.maxFrameRateHz) Hz, failsafe \(r.failsafeLatencyMs ?? -1) ms")
        #expect(r.framesPlayed == r.framesTotal)
        #expect(r.underruns == 0)
        // A crystal or even an RC oscillator is within 2 % (20000 ppm); anything beyond is a wrong clockHz.
        #expect(abs(r.clockDriftPPM) < 20_000)
        #expect(r.scheduleErrorUs.p99 < 1_000, "frames should play within 1 ms of their tick on real hardware")
        #expect(r.maxFrameRateHz >= 250)
        let failsafe = try #require(r.failsafeLatencyMs)
        #expect(r.failsafeMotorOff)
        #expect(failsafe >= Double(r.failsafeMs) && failsafe < Double(r.failsafeMs) + 5)
    }
}
