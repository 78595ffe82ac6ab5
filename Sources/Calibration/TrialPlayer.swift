// Plays one calibration trial's stimulus on a board through a BreathSession (steady levels, no shaping,
// no warm-up), and, on the simulated board, reads back what its output really did.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import SimBoard

/// Plays calibration trials on a board through a ``BreathSession``: each ``Stimulus`` as steady levels, no
/// shaping, no warm-up. On the simulated board (a ``SimWorld``) it also reads back what the board's output
/// really did, so a simulated person judges the real output and not the intent.
///
///     let player = TrialPlayer(session: session, world: world)
///     let prepared = try player.prepare()
///     let output = try player.play(stimulus)   // nil on a real board
public final class TrialPlayer {
    public let session: BreathSession
    /// The simulated board, when it is one: its output is read back after each trial.
    public let world: SimWorld?

    public init(session: BreathSession, world: SimWorld?) {
        self.session = session
        self.world = world
    }

    /// Prepares the board at its finest frames (at most 1 kHz): the spin-up task times pushes of a few tens
    /// of ms.
    public func prepare() throws(SessionError) -> Prepared {
        let prepared = try session.prepare()
        let fastest = min(1000, Int(prepared.info.maxFrameRateHz))
        if fastest > session.options.frameRate {
            session.options.frameRate = fastest
            _ = try session.prepare()
        }
        return prepared
    }

    /// The stimulus as a haptic pattern: one continuous event per segment, at its level.
    public static func pattern(_ stimulus: Stimulus) -> HapticPattern {
        var events: [HapticEvent] = []
        var t = 0.0
        for s in stimulus.segments {
            if s.level > 0 { events.append(.continuous(at: t, duration: s.seconds, intensity: s.level)) }
            t += s.seconds
        }
        return HapticPattern(events: events, curves: [])
    }

    /// Plays `stimulus` (blocking), returns the board's output as (seconds from its first change, drive)
    /// on the simulated board, nil on a real one (or when the trial was interrupted).
    public func play(_ stimulus: Stimulus) throws(SessionError) -> [(seconds: Double, drive: Double)]? {
        let before = world?.driveChanges.last?.tick ?? 0
        let report = try session.play(pattern: TrialPlayer.pattern(stimulus), duration: stimulus.seconds,
                                      motor: session.motor, compensate: false, warmup: 0)
        if report.interrupted { return nil }
        guard let world else { return nil }
        let changes = world.driveChanges.filter { $0.tick > before }
        guard let first = changes.first else { return [] }
        let hz = Double(world.spec.clockHz)
        return changes.map { (Double($0.tick - first.tick) / hz, Double($0.level) / 32767) }
    }
}
