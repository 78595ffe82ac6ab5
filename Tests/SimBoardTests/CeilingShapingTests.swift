// The host shapes within the board's drive ceiling: breaths rendered with a board's LIMITS, played by
// BoardCore enforcing the same LIMITS (the real board logic, frame by frame at their ticks), are never
// cut by the board: every output level is the level the host sent. And the simulated board answers
// LIMITS_REQ when given limits, so prepare hands them to the renderer.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import Breath
import MotorSession
import MotorWire
import SimBoard
import Testing
import TestSupport

/// A motor port that keeps every output change.
struct LevelLog: MotorPort {
    var changes: [(tick: UInt64, level: Int16)] = []
    mutating func schedule(level: Int16, at tick: UInt64) { changes.append((tick, level)) }
    mutating func off(at tick: UInt64) { changes.append((tick, 0)) }
}

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct CeilingShapingTests {
    static let ermLimits = Limits(ratedMillivolts: 3000, supplyMillivolts: 5000, overdriveMs: 50, recoveryMs: 500)
    static let lraLimits = Limits(ratedMillivolts: 2000, supplyMillivolts: 5000, overdriveMs: 20, recoveryMs: 200)

    /// Plays `raw` at 250 Hz on a 1 MHz BoardCore with `limits` (and the simulated board's output lead,
    /// so every change lands on its exact tick); returns the output log and the core.
    func play(_ raw: [UInt16], format: DutyFormat, info: Info, limits: Limits) -> (LevelLog, BoardCore<LevelLog>) {
        var core = BoardCore(port: LevelLog(), info: info, outputLeadTicks: 20_000, limits: limits)
        var wire = FixedBytes()
        func send(_ m: HostMessage, at now: UInt64) {
            wire = FixedBytes()
            _ = m.encode(seq: 0, into: &wire)
            for i in 0..<wire.count { core.receive(wire[i], now: now) }
            while core.nextOutgoing(into: &wire) {}
        }
        let flags = format == .i16 ? Configure.flagAllowReverse : 0
        send(.configure(Configure(frameRateHz: 250, dutyFormat: format, failsafeMs: 10_000, flags: flags)), at: 0)
        send(.start(Start(anchorIndex: 0, anchorTick: 10_000, periodQ32: 4000 << 32)), at: 0)
        var sent = 0
        for t in stride(from: UInt64(0), to: UInt64(raw.count) * 4000 + 20_000, by: 100) {
            while sent < raw.count && sent * 4000 < Int(t) + 400_000 {  // keep ~100 frames ahead
                var values = DutyValues()
                for v in raw[sent..<min(sent + 100, raw.count)] { values.append(v) }
                send(.frames(FramesBlock(firstIndex: UInt32(sent), format: format, values: values)), at: t)
                sent += values.count
            }
            core.service(now: t)
        }
        return (core.port, core)
    }

    func info(_ motor: MotorKind) -> Info {
        Info(firmwareMajor: 0, firmwareMinor: 0, firmwarePatch: 0, motorKind: motor, pwmBits: 16,
             capabilities: Info.capReverse | Info.capLimits | (motor == .lra ? Info.capLRACarrier : 0),
             bufferCapacity: 1024, minFrameRateHz: 50, maxFrameRateHz: 1000, clockHz: 1_000_000, uniqueID: 1,
             lraResonanceDeciHz: motor == .lra ? 1750 : 0, name: BoardName("ceiling"))
    }

    @Test(arguments: ["4-7-8", "box", "4-0-4"])
    func ermBreathsAreNeverCutByTheBoard(pattern: String) throws {
        for (resolution, format) in [(DutyResolution.u8, DutyFormat.u8), (.i16, .i16)] {
            var r = FrameRenderer(plan: BreathPlan(pattern: try BreathPattern.parse(pattern)), frameRate: 250,
                                  resolution: resolution, warmup: 0.3, ceiling: Self.ermLimits.driveCeiling)
            var raw: [UInt16] = []
            r.render(count: 1_000_000, into: &raw)
            let (log, core) = play(raw, format: format, info: info(.erm), limits: Self.ermLimits)
            // Every change is at a frame's tick, with that frame's level: the board changed nothing.
            for change in log.changes where change.tick >= 10_000 && change.tick < 10_000 + UInt64(raw.count) * 4000 {
                let k = Int((change.tick - 10_000) / 4000)
                #expect((change.tick - 10_000) % 4000 == 0 && k < raw.count && change.level == format.level(raw[k]),
                        "\(pattern) \(format): output \(change.level) at \(change.tick)")
            }
            let overdriven = raw.filter { format.level($0).magnitude > Self.ermLimits.ceilingLevel }.count
            #expect(overdriven > 0, "\(pattern) \(format): the shaper never used its overdrive")
            #expect(core.overdrive?.lockedOut == false)
        }
    }

    @Test func lraBreathIsNeverCutByTheBoard() throws {
        var r = FrameRenderer(plan: BreathPlan(pattern: try BreathPattern.parse("4-7-8")), frameRate: 250,
                              resolution: .u8, motor: .referenceLRA, ceiling: Self.lraLimits.driveCeiling)
        var raw: [UInt16] = []
        r.render(count: 1_000_000, into: &raw)
        let (log, core) = play(raw, format: .u8, info: info(.lra), limits: Self.lraLimits)
        // The carrier flips the sign between frames; magnitudes are always the frame's level.
        for change in log.changes where change.tick >= 10_000 && change.level != 0 {
            let k = Int((change.tick - 10_000) / 4000)
            #expect(k < raw.count && change.level.magnitude == DutyFormat.u8.level(raw[k]).magnitude,
                    "output \(change.level) at \(change.tick)")
        }
        #expect(core.overdrive?.lockedOut == false)
    }

    /// Prepare asks a board with the capability for LIMITS, and does not ask a board without it.
    @Test func prepareReadsTheLimitsOfABoardThatHasThem() throws {
        var spec = SimBoardSpec()
        spec.limits = Self.ermLimits
        let (link, board) = SimulatedBoard.inProcess(spec: spec)
        defer { board.stop() }
        let prepared = try BoardChannel(link: link).prepare(options: SessionOptions())
        #expect(prepared.limits == Self.ermLimits)

        let (plainLink, plainBoard) = SimulatedBoard.inProcess()
        defer { plainBoard.stop() }
        let channel = BoardChannel(link: plainLink)
        let plain = try channel.prepare(options: SessionOptions())
        #expect(plain.limits == nil)  // not asked: asking would have drawn NAK unknown_type, and prepare would throw
    }
}
