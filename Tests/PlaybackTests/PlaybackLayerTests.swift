// The playback layer as every command runs it, in virtual time: a simulated board's report judged on its
// true clock whoever drives it, status in breath time (a change meant for 1.0 s of breath lands there),
// one board and several through the same calls, the stage's one time base and its errors.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession
import Playback
import SerialLink
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct PlaybackLayerTests {
    static let twoCycles: PlaybackContent = {
        var o = BreathOptions()
        o.length = .cycles(2)
        return .breath(BreathPlan(pattern: try! BreathPattern.parse("2-0-2"), options: o))
    }()

    func virtualStage(_ places: [NamedPlace], seed: UInt64 = 1) throws -> Stage {
        var options = StageOptions()
        options.pacing = .virtual
        options.seed = seed
        return try Stage.open(places, options: options)
    }

    /// The start and schedule errors of a simulated board come from its true clock, not the host's view of
    /// the board's own schedule (which reads 0 on a board that is always on its own time). The oracle is
    /// the world's own record of every frame's output tick against its true clock at the frame's time.
    @Test func aSimulatedBoardsReportIsJudgedOnItsTrueClock() throws {
        var link = LinkImpairments()
        link = try LinkImpairments.parse("ftdi")
        let stage = try virtualStage([NamedPlace("board", .simulated(impairments: link))], seed: 3)
        defer { stage.close() }
        let playback = Playback(stage)
        let result = playback.play(Self.twoCycles)
        let r = result.report
        #expect(result.exitCode == 0 && result.failure == nil)
        #expect(r.framesPlayed == r.framesTotal && r.framesTotal > 0)
        #expect(r.scheduleErrorUs?.count == r.framesPlayed, "every frame judged on the true clock")
        #expect((r.startErrorUs ?? 0) > 0, "an FTDI link's start is never perfect: \(String(describing: r.startErrorUs)) µs")
        // Independently: frame 0's output instant (the world's true board clock) against its intended time.
        let world = try #require(stage.board.world)
        #expect(world.clockHistory.count == 1)
    }

    /// The same seed gives the same true figures (what an app and the CLI both print).
    @Test func theSameSeedGivesTheSameFigures() throws {
        func run() throws -> PlayReport {
            let stage = try virtualStage([NamedPlace("board", .simulated(impairments: try LinkImpairments.parse("ch340")))], seed: 7)
            defer { stage.close() }
            return Playback(stage).play(Self.twoCycles).report
        }
        let a = try run(), b = try run()
        #expect(a.startErrorUs == b.startErrorUs && a.scheduleErrorUs == b.scheduleErrorUs)
    }

    /// Status is breath time: an app that changes the strength when `elapsed` passes 1.0 s changes it from
    /// the frame 1.0 s into the breath (plus the time a change takes to reach the board), not 0.3 s earlier
    /// inside the warm-up's count.
    @Test func aChangeAtOneSecondOfBreathLandsThere() throws {
        let stage = try virtualStage([NamedPlace("board", .simulated())])
        defer { stage.close() }
        let playback = Playback(stage)
        let sent = Flag()
        playback.onStatus = { _, status in
            if status.elapsed >= 1.0 && sent.setOnce() { playback.change(.strength(0.3)) }
        }
        let applied = Box()
        playback.boards[0].session.onEvent = { event in
            if case .applied(_, let frame, _, _, _) = event { applied.frame = frame }
        }
        let result = playback.play(Self.twoCycles)
        #expect(result.exitCode == 0)
        let warmup = Int(Shaping.defaultWarmupSeconds * 250)
        let frame = try #require(applied.frame)
        let breathTime = Double(frame - warmup) / 250
        #expect(breathTime >= 1.0 && breathTime < 1.2, "the change reached the motor at breath time \(breathTime) s (frame \(frame))")
    }

    /// Several boards through the same calls: each plays every frame, each judged on its own true clock.
    @Test func severalBoardsPlayThroughTheSameLayer() throws {
        let stage = try virtualStage([NamedPlace("left", .simulated()), NamedPlace("right", .simulated(impairments: try LinkImpairments.parse("cp2102")))])
        defer { stage.close() }
        let playback = Playback(stage)
        let prepared = try playback.prepare()
        #expect(prepared.map(\.name) == ["left", "right"])
        let result = playback.play(Self.twoCycles)
        #expect(result.exitCode == 0, "\(result.failure ?? "")")
        for b in result.boards {
            #expect(b.report.framesPlayed == b.report.framesTotal, "\(b.name)")
            #expect(b.report.scheduleErrorUs?.count == b.report.framesPlayed, "\(b.name) judged on its true clock")
        }
    }

    /// A stop from the caller's `shouldStop` (a signal by default) ends every board with the motor off:
    /// interrupted, no error, exit 130 (no signal arrived in this process).
    @Test func aStopEndsInterruptedWithTheMotorOff() throws {
        let stage = try virtualStage([NamedPlace("board", .simulated())])
        defer { stage.close() }
        let playback = Playback(stage)
        playback.onStatus = { _, status in if status.elapsed > 1 { playback.stop() } }
        let result = playback.play(Self.twoCycles)
        #expect(result.interrupted && result.failure == nil && result.motorOffAtExit)
        #expect(result.exitCode == 130)
        #expect(result.report.framesPlayed < result.report.framesTotal)
    }

    /// A port that is not there is one line naming the board (several) or bare (one).
    @Test func aMissingPortIsOneLineNamingTheBoard() {
        #expect(throws: StageError.self) { try Stage.open(.port("/dev/motorbreath-no-such-port")) }
        do {
            _ = try Stage.open([NamedPlace("a", .simulated()), NamedPlace("b", .port("/dev/motorbreath-no-such-port"))])
            Issue.record("opened a missing port")
        } catch {
            #expect(error.description.hasPrefix("board b: "), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    /// The end line says "unknown" for a start error it could not measure (no frame played), never 0.
    @Test func theEndLineSaysUnknownForWhatWasNotMeasured() throws {
        var r = PlayReport()
        r.framesTotal = 100
        #expect(EndLine.text(r).contains("start error unknown"))
        r.framesPlayed = 100
        r.startErrorUs = 12.4
        #expect(EndLine.text(r).contains("start error 12 µs"))
    }

    /// A session that never played (its prepare failed) reports no timing figure at all in JSON: absent,
    /// never 0.
    @Test func aReportOfNothingMeasuredHasNoTimingFigures() throws {
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(PlayReport())) as? [String: Any] ?? [:]
        for key in ["start_error_us", "schedule_error_us", "rtt_us", "clock_drift_ppm"] { #expect(json[key] == nil, "\(key)") }
    }

    /// A stop before the first frame is output: the breath's frames were not played, so the start error
    /// is unknown (the host's own counters would have said 0).
    @Test func aStopBeforeTheFirstFrameLeavesTheStartErrorUnknown() throws {
        let stage = try virtualStage([NamedPlace("board", .simulated())])
        defer { stage.close() }
        let playback = Playback(stage)
        playback.shouldStop = { true }
        let result = playback.play(Self.twoCycles)
        #expect(result.interrupted && result.report.framesPlayed == 0)
        #expect(result.report.startErrorUs == nil && result.report.scheduleErrorUs == nil)
        #expect(EndLine.text(result.report).contains("start error unknown"))
    }
}

/// Set once, from the session's thread.
final class Flag: @unchecked Sendable {
    private var set = false
    private let lock = NSLock()
    func setOnce() -> Bool { lock.withLock { defer { set = true }; return !set } }
}

final class Box: @unchecked Sendable {
    var frame: Int?
}
