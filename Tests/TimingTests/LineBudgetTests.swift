// The line budget: at 1 kHz on 115200 baud the session's traffic stays within 12 % of the line each way,
// measured by the simulated line itself; and the CLOCK requests are spaced only where the line needs it.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import MotorWire
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LineBudgetTests {
    /// The budget's message sizes are what the encoder puts on the wire (COBS and delimiter included).
    @Test func messageSizesAreTheEncoders() {
        var wire = FixedBytes()
        func size(_ m: HostMessage) -> Int { _ = m.encode(seq: 200, into: &wire); return wire.count }
        #expect(size(.clockRequest(token: 0xFFFF_FFFF)) == LineBudget.clockRequestBytes)
        #expect(size(.start(Start(anchorIndex: 9, anchorTick: 1 << 40, periodQ32: 3 << 32))) == LineBudget.startBytes)
        var values = DutyValues()
        for i in 0..<100 { values.append(UInt16(i)) }
        let frames = size(.frames(FramesBlock(firstIndex: 1000, format: .u8, values: values)))
        #expect(frames == LineBudget.wireBytes(payload: FramesBlock.headerSize) + 100)
    }

    @Test func theCadenceFollowsTheLine() {
        func ms(_ rate: Int, _ format: DutyFormat, baud: Int = 115_200, batch: Int) -> Int {
            LineBudget(baud: baud, share: 0.12, frameRate: rate, format: format, framesPerMessage: batch)
                .clockIntervalMs(fastestMs: 20, slowestMs: 50)
        }
        // 1000 B/s of frames, 5 x 14 B/s of their headers, 2 x 28 B/s of STARTs leave 256 B/s of 1382:
        // a 12-byte request every 46.8 ms.
        #expect(ms(1000, .u8, batch: 200) == 47)
        #expect(ms(250, .u8, batch: 50) == 20)
        #expect(ms(250, .i16, batch: 50) == 20)
        #expect(ms(1000, .u8, baud: 500_000, batch: 200) == 20)
        // i16 at 1 kHz: the frames alone take 17 % of 115200 baud; the budget is out of reach and the clock
        // is not starved for nothing.
        #expect(ms(1000, .i16, batch: 117) == 20)
    }

    /// What went over the simulated line between 6 s and 16 s of a session (the world counts the bytes),
    /// and how many CLOCK requests the host sent in that time.
    func steadyTraffic(rate: Int, reverse: Bool, options: SessionOptions = SessionOptions())
        throws -> (toBoard: Double, toHost: Double, clockRequests: Int, result: TimingResult) {
        var s = TimingScenario(impairments: ftdiLike(drift: 500))
        s.frameRate = rate
        s.minutes = 0.5
        s.reverse = reverse
        var requests: [UInt64] = []
        var marks: [(toBoard: Int, toHost: Int)] = []
        let watch: (SimWorld) -> Void = { world in
            world.hostWriteFilter = { at, bytes in
                var decoder = FrameDecoder()
                for b in bytes {
                    if case .packet(let p)? = decoder.push(b), case .clockRequest? = try? HostMessage(p) { requests.append(at) }
                }
                return true
            }
        }
        let mark: (SimWorld) -> Void = { marks.append(($0.bytesToBoard, $0.bytesToHost)) }
        var timeAt: [UInt64] = []
        let (r, _, _) = try SimulatedSession.run(s, options: options, during: [
            (0, watch), (6, { mark($0); timeAt.append($0.hostClock.nowNs()) }), (16, { mark($0); timeAt.append($0.hostClock.nowNs()) }),
        ], recordPlays: false)
        try #require(timeAt.count == 2, "the session ended before 16 s")
        let seconds = Double(timeAt[1] - timeAt[0]) / 1e9
        let line = 115_200.0 / 10
        let inSpan = requests.filter { $0 >= timeAt[0] && $0 < timeAt[1] }.count
        return (Double(marks[1].toBoard - marks[0].toBoard) / seconds / line,
                Double(marks[1].toHost - marks[0].toHost) / seconds / line, inSpan, r)
    }

    @Test func aThousandFramesASecondLeaveRoomOnTheLine() throws {
        let t = try steadyTraffic(rate: 1000, reverse: false)
        #expect(t.toBoard <= 0.12, "host to board \(t.toBoard * 100) % of 115200 baud")
        #expect(t.toHost <= 0.12, "board to host \(t.toHost * 100) % of 115200 baud")
        // Spaced (every 20 ms would be 500 in 10 s), but at least every 50 ms.
        #expect((200...250).contains(t.clockRequests), "\(t.clockRequests) CLOCK requests in 10 s")
        // And the breath is still on time, judged against the board's true clock (from 3 s on, once the
        // clock's rate is learned; the first seconds are the same with or without the budget).
        #expect(t.result.underruns == 0 && t.result.wrongDuties == 0)
        #expect(t.result.settledScheduleErrorUs.p99 < 1000, "p99 \(t.result.settledScheduleErrorUs.p99) µs")
    }

    /// At 250 Hz the line has room: the requests stay every 20 ms (the timing the benchmark measures).
    @Test func whereTheLineHasRoomTheClockIsNotSpaced() throws {
        let t = try steadyTraffic(rate: 250, reverse: true)
        #expect(t.clockRequests >= 450, "\(t.clockRequests) CLOCK requests in 10 s")  // every 20-21 ms
        #expect(t.toBoard < 0.12)
    }

    /// Spaced exchanges are kept longer (by the square root of the spacing's ratio: 47 ms -> 31 s instead of
    /// 20 s), so the estimate still rests on about as many of them; at 250 Hz the window stays 20 s.
    @Test(arguments: [(1000, false, 30.7), (250, true, 20.0)])
    func sparserExchangesAreKeptLonger(rate: Int, reverse: Bool, seconds: Double) throws {
        var s = TimingScenario(impairments: ftdiLike(drift: 500))
        s.frameRate = rate
        s.minutes = 1
        s.reverse = reverse
        let (r, player, _) = try SimulatedSession.run(s, recordPlays: false)
        let samples = player.clockSamples
        let first = try #require(samples.first), last = try #require(samples.last)
        let span = Double(last.sentNs - first.sentNs) / 1e9
        // It prunes every 25 exchanges, so it may hold up to 25 spacings more than its window.
        #expect(span >= seconds - 0.5 && span < seconds + 1.5, "the tracker holds \(span) s of exchanges")
        #expect(r.underruns == 0 && r.wrongDuties == 0)
        #expect(r.settledScheduleErrorUs.p99 < 1000, "p99 \(r.settledScheduleErrorUs.p99) µs")
    }
}
