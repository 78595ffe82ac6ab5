// The bench test of a board (real, or emulated in QEMU): round trips, clock drift, the highest frame
// rate the link sustains, schedule error from the board's own PLAYED timestamps, and failsafe latency
// measured on the board clock.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

/// What `motorbreath bench` measured.
public struct BenchReport: Sendable, Codable {
    public var board = ""
    public var port = ""
    public var baud: Int?
    public var clockHz = 0
    public var prepareMs = 0.0
    public var rttUs = Percentiles()
    /// CLOCK exchanges of the 200 whose reply never came.
    public var lostReplies = 0
    public var clockDriftPPM = 0.0
    public var scheduleErrorUs = Percentiles()
    public var framesPlayed = 0
    public var framesTotal = 0
    public var underruns = 0
    /// Every rate tried, and whether every frame played on time.
    public var frameRates: [FrameRateTrial] = []
    public var maxFrameRateHz = 0
    /// Frames per second the baud rate could carry (u8 frames in 32-frame messages, PLAYED every 25).
    public var linkBudgetFrameRateHz: Int?
    public var failsafeMs = 0
    /// Board clock from the last message the board received to the motor going off.
    public var failsafeLatencyMs: Double?
    public var failsafeMotorOff = false
    /// Stopped early (Ctrl-C): the steps after the interruption did not run; the motor was stopped.
    public var interrupted = false

    enum CodingKeys: String, CodingKey {
        case board, port, baud, clockHz = "clock_hz", prepareMs = "prepare_ms", rttUs = "rtt_us", lostReplies = "lost_replies"
        case clockDriftPPM = "clock_drift_ppm", scheduleErrorUs = "schedule_error_us", framesPlayed = "frames_played"
        case framesTotal = "frames_total", underruns, frameRates = "frame_rates", maxFrameRateHz = "max_frame_rate_hz"
        case linkBudgetFrameRateHz = "link_budget_frame_rate_hz", failsafeMs = "failsafe_ms"
        case failsafeLatencyMs = "failsafe_latency_ms", failsafeMotorOff = "failsafe_motor_off", interrupted
    }
}

/// One frame rate the bench tried for 2 s: whether it was sustained (every frame played, no underrun, none
/// arriving late), with its underruns and late arrivals.
public struct FrameRateTrial: Sendable, Codable {
    public var hz: Int
    public var sustained: Bool
    public var underruns: Int
    public var lateArrivals: Int
}

/// Fixed duty frames: a slow triangle between 20 % and 80 %, so every frame differs from its neighbours.
final class TriangleFrames: FrameSource {
    let frameCount: Int
    let period: Int
    init(count: Int, period: Int) {
        frameCount = count
        self.period = max(2, period)
    }
    func frames(from start: Int, count: Int) -> [UInt16] {
        (start..<min(start + count, frameCount)).map { i in
            let phase = i % period, half = period / 2
            let x = phase < half ? phase : period - phase
            return UInt16(51 + 153 * x / max(1, half))
        }
    }
}

/// The bench test of a board (real, or emulated in QEMU), as `motorbreath bench` runs it: CLOCK round
/// trips, clock drift, schedule error from the board's own PLAYED timestamps, the highest frame rate the
/// link sustains (250, 500, 1000 Hz), and failsafe latency measured on the board clock. Stops the motor
/// and skips the remaining steps once `shouldStop` says so.
///
///     let channel = BoardChannel(link: try PortOpener.open(path: "/dev/ttyACM0", baud: 250_000))
///     let report = try Bench.run(channel: channel, baud: 250_000, port: "/dev/ttyACM0", progress: { print($0) })
///     print(report.rttUs, report.scheduleErrorUs, report.maxFrameRateHz, report.failsafeLatencyMs ?? .nan)
public enum Bench {
    /// Runs every measurement on `channel`'s board, each step with `base`'s settings (its boot wait,
    /// timeouts) and the frame rate and reporting that step needs. `progress` gets one line per step;
    /// once `shouldStop` returns true the running step stops the motor and the rest is skipped.
    public static func run(channel: BoardChannel, base: SessionOptions = SessionOptions(), seconds: Double = 10,
                           baud: Int?, port: String, progress: (String) -> Void = { _ in },
                           shouldStop: () -> Bool = { false }) throws(SessionError) -> BenchReport {
        var r = BenchReport()
        r.port = port
        r.baud = baud

        // 1. Prepare, then round trips: 200 CLOCK exchanges.
        progress("prepare and round trips")
        var options = base
        var prepared = try channel.prepare(options: options)
        r.board = prepared.info.name.text
        r.clockHz = Int(prepared.info.clockHz)
        r.prepareMs = Double(prepared.prepareNs) / 1e6
        var rtts: [Double] = []
        for k in 0..<200 where !shouldStop() {
            if let s = try? channel.clockSample(token: UInt32(50_000 + k), timeoutMs: options.replyTimeoutMs) {
                rtts.append(Double(s.receivedNs - s.sentNs) / 1000)
            }
        }
        guard !rtts.isEmpty else { throw .timeout("CLOCK replies") }
        r.rttUs = Percentiles(rtts)
        r.lostReplies = 200 - rtts.count
        if shouldStop() { return interrupted(r) }

        // 2. Schedule error and drift: `seconds` of frames at 250 Hz, PLAYED for every frame.
        progress("schedule: \(Int(seconds)) s at 250 Hz, every frame reported")
        options.reportEvery = 1
        prepared = try channel.prepare(options: options)
        let count = Int(seconds * 250)
        let player = Player(channel: channel, prepared: prepared, options: options)
        let played = try player.play(TriangleFrames(count: count, period: 500), shouldStop: shouldStop)
        // (Unmeasured only when no frame was played: the bench then fails on frames_played itself.)
        r.scheduleErrorUs = played.scheduleErrorUs ?? Percentiles()
        r.clockDriftPPM = played.clockDriftPPM ?? 0
        r.framesPlayed = played.framesPlayed
        r.framesTotal = played.framesTotal
        r.underruns = played.underruns
        if played.interrupted { return interrupted(r) }

        // 3. Frame rates: 2 s at each rate the board accepts; sustained = every frame played, none late.
        for hz in [250, 500, 1000] where hz >= Int(prepared.info.minFrameRateHz) && hz <= Int(prepared.info.maxFrameRateHz) {
            progress("frame rate \(hz) Hz")
            var o = base
            o.frameRate = hz
            let p = Player(channel: channel, prepared: try channel.prepare(options: o), options: o)
            let t = try p.play(TriangleFrames(count: 2 * hz, period: hz), shouldStop: shouldStop)
            if t.interrupted { return interrupted(r) }
            let ok = t.framesPlayed == t.framesTotal && t.underruns == 0 && t.lateArrivals == 0
            r.frameRates.append(FrameRateTrial(hz: hz, sustained: ok, underruns: t.underruns, lateArrivals: t.lateArrivals))
            if ok { r.maxFrameRateHz = hz }
        }
        if let baud {
            // Per frame on the wire: 1 duty byte + a 32-frame message's 12 header/CRC/COBS bytes / 32;
            // back, a 25-frame PLAYED (about 30 bytes) / 25. 10 bits per byte (8N1).
            let bytesPerFrame = 1.0 + 12.0 / 32.0 + 30.0 / 25.0
            r.linkBudgetFrameRateHz = Int(Double(baud) / 10 / bytesPerFrame)
        }

        // 4. Failsafe: play a steady duty, make a CLOCK exchange the last message, then fall silent.
        progress("failsafe")
        guard let fs = try failsafe(channel: channel, options: base, shouldStop: shouldStop) else { return interrupted(r) }
        r.failsafeMs = Int(fs.configuredMs)
        r.failsafeLatencyMs = fs.latencyMs
        r.failsafeMotorOff = fs.motorOff
        return r
    }

    static func interrupted(_ report: BenchReport) -> BenchReport {
        var r = report
        r.interrupted = true
        return r
    }

    /// A CLOCK exchange, asked again (new token) if the reply does not come.
    static func clockSample(_ channel: BoardChannel, token: UInt32, options: SessionOptions) throws(SessionError) -> ClockSample {
        var lastError = SessionError.timeout("CLOCK reply")
        for k in 0..<3 {
            do { return try channel.clockSample(token: token + UInt32(k), timeoutMs: options.replyTimeoutMs) } catch {
                guard case .timeout = error else { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    struct FailsafeResult {
        var configuredMs: UInt16
        var latencyMs: Double?
        var motorOff: Bool
    }

    /// Starts a second of 50 % duty, stops talking, and waits for the board's own STATUS saying it
    /// turned the motor off. The latency is board clock: the tick the board stamped on the last CLOCK
    /// reply (when it last heard the host) to the tick on that STATUS. Nil when `shouldStop` cut it short
    /// (the motor is stopped first).
    static func failsafe(channel: BoardChannel, options: SessionOptions,
                         shouldStop: () -> Bool) throws(SessionError) -> FailsafeResult? {
        let prepared = try channel.prepare(options: options)
        let rate = UInt64(options.frameRate)
        var values = DutyValues()
        for _ in 0..<32 { values.append(128) }
        var sent: UInt32 = 0
        for _ in 0..<(Int(rate) / 32 + 1) {
            try channel.send(.frames(FramesBlock(firstIndex: sent, format: prepared.config.dutyFormat, values: values)))
            sent += UInt32(values.count)
        }
        // Anchor on a fresh CLOCK reply: the first frame plays 50 ms after the board's tick in it.
        let sample = try clockSample(channel, token: 77_000, options: options)
        let hz = UInt64(prepared.info.clockHz)
        let sinceNs = channel.clock.nowNs() - sample.receivedNs
        let startTick = sample.tick + sinceNs * hz / 1_000_000_000 + hz / 20
        try channel.send(.start(Start(anchorIndex: 0, anchorTick: startTick, periodQ32: (hz << 32) / rate)))
        // Keep it alive (heartbeats) until it has played for 100 ms.
        let deadline = channel.clock.nowNs() + 2_000_000_000
        var playing = false
        while !playing && channel.clock.nowNs() < deadline {
            if shouldStop() {
                _ = channel.stopNow(timeoutMs: options.replyTimeoutMs)
                return nil
            }
            let st = try channel.status(timeoutMs: options.replyTimeoutMs)
            playing = st.state == .playing && st.nextPlay >= UInt32(rate / 10)
            if !playing { _ = try channel.receive(timeoutMs: 10) }
        }
        guard playing else { throw .timeout("the board to start playing") }
        let trips = try channel.status(timeoutMs: options.replyTimeoutMs).failsafeTrips
        let last = try clockSample(channel, token: 78_000, options: options)
        let off = try? channel.waitFor("failsafe STATUS", timeoutMs: Int(prepared.config.failsafeMs) * 5 + 1000) { m throws(SessionError) -> Status? in
            if case .status(let s) = m, s.failsafeTrips > trips { return s }
            return nil
        }
        guard let off else { return FailsafeResult(configuredMs: prepared.config.failsafeMs, latencyMs: nil, motorOff: false) }
        let latency = Double(off.tick &- last.tick) * 1000 / Double(prepared.info.clockHz)
        return FailsafeResult(configuredMs: prepared.config.failsafeMs, latencyMs: latency, motorOff: off.output == 0)
    }
}
