// Several simulated boards playing one breath in step through the playback layer (each in its own
// virtual-time world), and every frame's true output instant on each board brought to one time base and
// compared across boards.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession
import MotorWire
import Playback
import HostPlatform
import SimBoard

/// One simulated board of an ensemble: its name, board (clock, motor) and link, and its world's seed.
public struct EnsembleBoard: Sendable {
    public var name: String
    public var spec: SimBoardSpec
    public var impairments: LinkImpairments
    public var seed: UInt64
    /// Test-only: moves this board's start instant by this much after the ensemble chose it (a wrong start
    /// the in-step judge must catch).
    public var startNudgeNs: Int64 = 0
    /// Its place in a spatial breath (`--spread`, `--actuator`): where its swells fall, its strength.
    public var spread: BreathSpread?
    /// Its own offset: its breath this much later (`--actuator NAME:offset=`).
    public var offsetNs: UInt64 = 0
    /// Test-only: this board's cable is pulled `atS` seconds after the start instant for `forS` seconds (its
    /// board reboots when it comes back); nil: never.
    public var unplug: (atS: Double, forS: Double)?
    /// Test-only: this board resets (power-cycles: a new clock offset, its state lost) `atS` seconds after the
    /// start instant; nil: never.
    public var resetAtS: Double?

    public init(name: String, spec: SimBoardSpec = SimBoardSpec(), impairments: LinkImpairments, seed: UInt64) {
        self.name = name
        self.spec = spec
        self.impairments = impairments
        self.seed = seed
    }
}

/// Plays one breath on several simulated boards in step (``BreathEnsemble``), each board in a virtual-time
/// world of its own on a thread of its own, and judges the skew between them on their true clocks.
///
/// One time base: a virtual world's time is the host's clock as that board's session sees it, and every
/// world begins at 0, so world times are one host clock simulated once per board (the worlds never
/// exchange anything, so none needs the others' time). The ensemble gives every player the same start
/// instant on it; each frame's true output instant is its board's true clock read back to world time
/// (`SimClock.hostNs(atTick:)`, the simulation's own truth, never the host's estimate). The skew of frame i
/// is the spread of those instants across the boards.
///
///     let result = try EnsembleSession.run(boards, minutes: 10)
///     print(result.skewUs.p99, result.skewUs.max)
public enum EnsembleSession {
    /// Plays `pattern` for `minutes` at `frameRate` on `boards`; `changes` go to every board when its
    /// world's time since the start instant passes their second, from the ensemble's common frame for that
    /// instant (`changeLeadMs`, as `BreathEnsemble.change` does; nil: each board's own first frame).
    /// `startLeadMs`: the ensemble's start lead (nil: its default).
    public static func run(_ boards: [EnsembleBoard], pattern: String = "4-7-8", minutes: Double = 10, frameRate: Int = 250,
                           options: SessionOptions = SessionOptions(),
                           changes: [(atS: Double, change: BreathChange)] = [], changeLeadMs: Int? = 80,
                           startLeadMs: Int? = nil, felt: Bool = false, allOrNothing: Bool = false) throws -> EnsembleResult {
        let wall = Date()
        var stageOptions = StageOptions()
        stageOptions.pacing = .virtual
        let stage = try Stage.open(boards.map { NamedPlace($0.name, .simulated(impairments: $0.impairments, spec: $0.spec), seed: $0.seed) },
                                   options: stageOptions)
        defer { stage.close() }
        let worlds = stage.boards.map { $0.connection.world! }
        var o = options
        o.frameRate = frameRate
        // The shaping the sessions used before the playback layer: the board's reference motor, no profile.
        let playback = Playback(stage, options: o, placements: boards.map { Placement(spread: $0.spread, offsetMs: Int($0.offsetNs / 1_000_000)) },
                                startLeadMs: startLeadMs)
        playback.shouldStop = { false }
        playback.changeLeadMs = changeLeadMs
        playback.allOrNothing = allOrNothing
        let recorders = boards.map { _ in InStepRecorder() }
        let nudges = boards.map(\.startNudgeNs)
        playback.onWillPlay = { k, player, frames, truth in
            if nudges[k] != 0, let s = player.startAtNs { player.startAtNs = UInt64(Int64(s) + nudges[k]) }
            recorders[k].watch(world: worlds[k], player: player, frames: frames)
            truth?.forward = recorders[k]
        }
        playback.onEvent = { k, event in
            if case .applied(_, let frame, _, _, _) = event { recorders[k].appliedFrames.append(frame) }
        }
        playback.boardShouldStop = disturbances(boards, worlds: worlds, playback: playback, changes: changes)
        try playback.prepare()
        var breath = BreathOptions()
        breath.length = .minutes(minutes)
        let result = playback.play(.breath(BreathPlan(pattern: try BreathPattern.parse(pattern), options: breath)))
        var measured = EnsembleResult(boards: boards.map(\.name), recorders: recorders, startAtNs: playback.startAtNs ?? 0,
                                      reports: result.boards, settledFrom: 10 * frameRate,
                                      wallSeconds: Date().timeIntervalSince(wall))
        if felt { measured.felt(worlds: worlds, boards: boards) }
        return measured
    }

    /// What happens to board k as its world's time passes the common start: its cable pulled, its reset,
    /// the changes (each world's time is the host's clock for its board, so a change made at one host
    /// instant reaches each board's session when its world's time passes that instant).
    static func disturbances(_ boards: [EnsembleBoard], worlds: [SimWorld], playback: Playback,
                             changes: [(atS: Double, change: BreathChange)]) -> @Sendable (Int) -> Bool {
        let state = Disturbances(boards: boards, changes: changes)
        return { [unowned playback] k in
            guard let start = playback.startAtNs else { return false }
            let world = worlds[k], t = world.nowNs
            guard t >= start else { return false }
            let s = Double(t - start) / 1e9
            for action in state.due(k, atS: s) {
                switch action {
                case .unplug(let forS): world.unplug(forNs: UInt64(forS * 1e9))
                case .reset: world.reboot()
                case .change(let atS, let change):
                    let at = start + UInt64(atS * 1e9)
                    playback.boards[k].session.controls.send(change, notBeforeFrame: playback.commonFrame(atNs: at))
                }
            }
            return false
        }
    }
}

/// Each board's disturbances still to come (read and taken on the board's own thread).
private final class Disturbances: @unchecked Sendable {
    enum Action { case unplug(forS: Double), reset, change(atS: Double, BreathChange) }
    private var pending: [[(atS: Double, action: Action)]]
    private let lock = Mutex()

    init(boards: [EnsembleBoard], changes: [(atS: Double, change: BreathChange)]) {
        pending = boards.map { b in
            var list: [(atS: Double, action: Action)] = []
            if let u = b.unplug { list.append((u.atS, .unplug(forS: u.forS))) }
            if let r = b.resetAtS { list.append((r, .reset)) }
            list += changes.sorted { $0.atS < $1.atS }.map { ($0.atS, .change(atS: $0.atS, $0.change)) }
            return list
        }
    }

    /// The actions of board `k` due by `atS` seconds after the start, in the order they were before:
    /// the unplug, the reset, then the changes in time order.
    func due(_ k: Int, atS s: Double) -> [Action] {
        lock.withLock {
            let now = pending[k].filter { $0.atS <= s }
            pending[k].removeAll { $0.atS <= s }
            return now.map(\.action)
        }
    }
}

extension EnsembleResult {
    /// Each board's drive on world time through the reference model of its motor: the felt skew.
    mutating func felt(worlds: [SimWorld], boards: [EnsembleBoard]) {
        let crossings = zip(worlds, boards).map { world, board -> [(ns: UInt64, up: Bool)] in
            let clock = world.clockHistory[0]
            let changes = world.driveChanges.map { (ns: clock.hostNs(atTick: $0.tick), level: $0.level) }
            return board.spec.motor == .lra ? FeltSkew.crossings(changes, model: LRAModel())
                : FeltSkew.crossings(changes, model: ERMModel())
        }
        feltSkewUs = FeltSkew.skewUs(crossings)
        feltCrossings = crossings
    }
}

/// Records, for one board, every breath frame's true output instant on the world's time (its board's true
/// clock read back to host time), as the board plays it.
final class InStepRecorder: PlayObserver, @unchecked Sendable {
    private var world: SimWorld?
    private var player: Player?
    private(set) var frames: FrameSource?
    /// True output instant of session frame i (0: not played), world ns.
    private(set) var trueNs: [UInt64] = []
    /// The intended instant of frame i on this board's player (`Player.intendedNs`), for the start error.
    var intended: (Int) -> UInt64 = { _ in 0 }
    /// The first frame of every live change that reached this board's motor.
    var appliedFrames: [Int] = []

    /// Follows `player` on `world` (the true-clock judge forwards every frame to it).
    func watch(world: SimWorld, player: Player, frames: FrameSource) {
        self.world = world
        self.player = player
        self.frames = frames
        intended = { [unowned player] in player.intendedNs($0) }
    }

    func played(_ p: PlayRecord) {
        guard let world, let player, p.boot < player.wireBases.count, p.boot < world.clockHistory.count else { return }
        let i = player.wireBases[p.boot] + Int(p.index)
        guard i >= 0 else { return }
        if i >= trueNs.count { trueNs += [UInt64](repeating: 0, count: max(i + 1 - trueNs.count, 4096)) }
        trueNs[i] = world.clockHistory[p.boot].hostNs(atTick: p.tick)
    }

    /// Frames of the breath (its length now).
    var breathFrames: Int { frames?.frameCount ?? 0 }
}

/// The boards' skew, frame by frame, on their true clocks; and each board's own figures.
public struct EnsembleResult: Sendable {
    /// Per board: its name, frames of the breath it output, the host's report.
    public struct Board: Sendable {
        public var name: String
        public var framesPlayed: Int
        /// |first frame's true output - the common start instant|, µs.
        public var startErrorUs: Double
        /// |true output - intended instant| over the breath's frames, µs.
        public var scheduleErrorUs: Percentiles
        /// The longest silence between two consecutive frames it output (true clock, ms), and the first
        /// frame after it (a board that went away and rejoined: where it rejoined the breath).
        public var longestGapMs = 0.0
        public var frameAfterGap = 0
        /// The first frame of each live change that reached this board's motor.
        public var appliedFrames: [Int]
        public var report: PlayReport
    }

    public var boards: [Board]
    /// Frames every board output.
    public var framesCompared: Int
    /// Per frame, the latest board's true output instant minus the earliest's, µs.
    public var skewUs: Percentiles
    /// The same over the frames from `settledFrom` on (the clock estimates have learned the rates).
    public var settledSkewUs: Percentiles
    /// With `felt`: per crossing of half strength by the felt amplitude (each board's drive through its
    /// motor's reference model), the latest board's instant minus the earliest's, µs.
    public var feltSkewUs: Percentiles?
    /// With `felt`: each board's half-strength crossings (world ns), in board order.
    public var feltCrossings: [[(ns: UInt64, up: Bool)]] = []
    /// The frame with the largest skew.
    public var worstFrame: Int
    /// The common start instant (world ns).
    public var startAtNs: UInt64
    public var wallSeconds: Double

    init(boards names: [String], recorders: [InStepRecorder], startAtNs: UInt64, reports: [BoardReport], settledFrom: Int, wallSeconds: Double) {
        self.startAtNs = startAtNs
        self.wallSeconds = wallSeconds
        let n = recorders.map { min($0.breathFrames, $0.trueNs.count) }.min() ?? 0
        var skews: [Double] = [], settled: [Double] = []
        skews.reserveCapacity(n)
        var worst = (frame: 0, us: -1.0)
        for i in 0..<n {
            var lo = UInt64.max, hi: UInt64 = 0, all = true
            for r in recorders {
                let t = r.trueNs[i]
                if t == 0 { all = false; break }
                lo = min(lo, t)
                hi = max(hi, t)
            }
            guard all else { continue }
            let us = Double(hi - lo) / 1000
            skews.append(us)
            if i >= settledFrom { settled.append(us) }
            if us > worst.us { worst = (i, us) }
        }
        framesCompared = skews.count
        skewUs = Percentiles(skews)
        settledSkewUs = Percentiles(settled)
        worstFrame = worst.frame
        boards = zip(names, recorders).enumerated().map { k, pair in
            let (name, r) = pair
            let count = min(r.breathFrames, r.trueNs.count)
            var errors: [Double] = [], previous: UInt64?, gap = (ms: 0.0, frame: 0)
            for i in 0..<count where r.trueNs[i] != 0 {
                errors.append(abs(Double(Int64(bitPattern: r.trueNs[i] &- r.intended(i)))) / 1000)
                if let p = previous, Double(r.trueNs[i]) - Double(p) > gap.ms * 1e6 { gap = ((Double(r.trueNs[i]) - Double(p)) / 1e6, i) }
                previous = r.trueNs[i]
            }
            let first = r.trueNs.first ?? 0
            return Board(name: name, framesPlayed: errors.count,
                         startErrorUs: first == 0 ? 0 : abs(Double(Int64(bitPattern: first &- startAtNs))) / 1000,
                         scheduleErrorUs: Percentiles(errors), longestGapMs: gap.ms, frameAfterGap: gap.frame,
                         appliedFrames: r.appliedFrames, report: reports[k].report)
        }
    }
}
