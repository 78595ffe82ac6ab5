// Every frame a simulated board plays, judged as it plays against the board's true clock at the frame's
// intended host time, and against the duty the host meant: constant memory, so an 8-hour session in
// virtual time stays small. Beside the connection that knows the world: play, latency and the benchmark all
// judge a simulated session this way.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import MotorWire
import SimBoard

/// Judges every frame a simulated board plays, as it plays, against the board's true clock at the frame's
/// intended host time and against the duty the host meant. Constant memory (percentile sketches), so an
/// 8-hour session in virtual time stays small. Create it before playing, read its figures after.
///
///     let truth = TrueTiming(world: world, player: player, expected: FrameWindow(renderer))
///     _ = try player.play(FrameWindow(renderer), shouldStop: { false })
///     print(truth.startErrorUs, truth.scheduleErrorUs)
public final class TrueTiming: PlayObserver, @unchecked Sendable {
    private let world: SimWorld
    private let player: Player
    private let expected: FrameSource?
    private let tailFrom: Int
    /// Frames of the breath the board output (the stop after its end not counted).
    public private(set) var framesPlayed = 0
    /// Frames output as 0 where the host meant something else (their data was late).
    public var underruns: Int { committedUnderruns + unresolved.values.filter { $0.played == 0 }.count }
    /// Frames output with a duty the host never meant for them.
    public var wrongDuties: Int { committedWrong + unresolved.values.filter { $0.played != 0 }.count }
    /// Frames that played the value the host had sent for them before a live change, because the change's
    /// REPLACE reached the board after it had output them (the board's next frame to play said so).
    public private(set) var supersededFrames = 0
    private var committedUnderruns = 0
    private var committedWrong = 0
    /// Frames whose output differed from what the host means for them now, not yet explained.
    private var unresolved: [Key: (played: UInt16, meant: UInt16)] = [:]
    /// |first frame's output - its true intended tick|, µs (0 until `judgedFirst`).
    public private(set) var startErrorUs = 0.0
    /// The first frame was output and judged.
    public private(set) var judgedFirst = false
    /// From the host's first CLOCK request to the first frame's intended time, ms: how long the clock
    /// estimate had before the frame that sets the start error (the bound in ClockLimit gets as long).
    public private(set) var syncBeforeStartMs = 0.0
    private var errors = PercentileSketch()
    private var settled = PercentileSketch()
    private let settledFrom: Int
    private var tailSum = 0.0
    private var tailCount = 0

    /// Judges every frame `world` plays from now on for `player`; `expected` gives the duties meant (a source
    /// of its own, read forward). Frames of the last `tailSeconds` also give the drift at the end.
    /// Frames from `settledFrom` on are also judged apart (after the clock estimate has settled).
    public init(world: SimWorld, player: Player, expected: FrameSource?, tailFrom: Int = Int.max, settledFrom: Int = Int.max) {
        self.world = world
        self.player = player
        self.expected = expected
        self.tailFrom = tailFrom
        self.settledFrom = settledFrom
        world.observePlays(self)
    }

    /// Sees every frame and REPLACE the world reports after this judge has (a bench's own recorder: the
    /// world has one observer, and the judge is it).
    public var forward: PlayObserver?

    /// Judges one frame the board output (``PlayObserver``; the world calls it).
    public func played(_ p: PlayRecord) {
        forward?.played(p)
        guard p.boot < player.wireBases.count, p.boot < world.clockHistory.count else { return }
        let i = player.wireBases[p.boot] + Int(p.index)
        if let expected, i >= expected.frameCount { return }  // past the end: the stop, not the breath
        let truth = world.clockHistory[p.boot].ticks(atHostNs: player.intendedNs(i))
        let errorUs = (Double(p.tick) - Double(truth)) / Double(world.clockHistory[p.boot].clockHz) * 1e6
        framesPlayed += 1
        errors.add(abs(errorUs))
        if i >= settledFrom { settled.add(abs(errorUs)) }
        if i == 0 {
            judgedFirst = true
            startErrorUs = abs(errorUs)
            if let first = player.firstClockRequestNs {
                syncBeforeStartMs = Double(Int64(bitPattern: player.intendedNs(0) &- first)) / 1e6
            }
        }
        if i >= tailFrom {
            tailSum += errorUs
            tailCount += 1
        }
        if let meant = expected?.frames(from: i, count: 1).first, p.raw != meant {
            // The host may already mean a new value a REPLACE is carrying to the board: held until the
            // board says whether it came too late for this frame (then the frame played what it had).
            unresolved[Key(boot: p.boot, index: p.index)] = (p.raw, meant)
            if unresolved.count > 4096 { settle() }
        }
    }

    /// A REPLACE reached the board (``PlayObserver``): its values for frames the board had output by then
    /// came too late, and a frame held as a mismatch that played before its new value arrived is explained.
    public func replaceArrived(boot: Int, block: FramesBlock, nextPlay: UInt32, tick: UInt64) {
        forward?.replaceArrived(boot: boot, block: block, nextPlay: nextPlay, tick: tick)
        if boot < world.clockHistory.count {
            replaceArrivals.append(ReplaceArrival(boot: boot, firstIndex: block.firstIndex, count: block.values.count,
                                                  nextPlay: nextPlay, hostNs: world.clockHistory[boot].hostNs(atTick: tick)))
            if replaceArrivals.count > 100_000 { replaceArrivals.removeFirst(50_000) }
        }
        for k in 0..<block.values.count where indexDistance(block.firstIndex &+ UInt32(k), nextPlay) < 0 {
            let key = Key(boot: boot, index: block.firstIndex &+ UInt32(k))
            guard let held = unresolved[key], held.meant == block.values[k] else { continue }
            unresolved[key] = nil
            supersededFrames += 1
        }
    }

    /// One REPLACE as the board got it: when (host ns, through the board's true clock) and its next frame
    /// to play then (the first frame its values could still change).
    public struct ReplaceArrival: Sendable {
        public var boot: Int
        public var firstIndex: UInt32
        public var count: Int
        public var nextPlay: UInt32
        public var hostNs: UInt64
    }

    /// Every REPLACE the board got (the latest 100,000), in order.
    public private(set) var replaceArrivals: [ReplaceArrival] = []

    /// Judges every held mismatch that no late REPLACE explained.
    private func settle() {
        for (_, held) in unresolved {
            if held.played == 0 { committedUnderruns += 1 } else { committedWrong += 1 }
        }
        unresolved.removeAll()
    }

    private struct Key: Hashable { var boot: Int; var index: UInt32 }

    /// |output - true intended tick| over every frame, µs.
    public var scheduleErrorUs: Percentiles { errors.percentiles }

    /// The same over the frames from `settledFrom` on.
    public var settledScheduleErrorUs: Percentiles { settled.percentiles }

    /// Mean signed error over the tail frames (how far the schedule drifted by the end), µs.
    public var driftAtEndUs: Double { tailCount == 0 ? 0 : abs(tailSum / Double(tailCount)) }
}

extension TrueTiming {
    /// Puts the true-clock figures into `report` (frames played, start and schedule error, underruns, wrong
    /// duties), in place of the host's own estimates.
    public func judge(_ report: inout PlayReport) {
        report.framesPlayed = framesPlayed
        report.startErrorUs = judgedFirst ? startErrorUs : nil
        report.scheduleErrorUs = scheduleErrorUs.measured
        report.underruns = underruns
        report.wrongDuties = wrongDuties
    }
}
