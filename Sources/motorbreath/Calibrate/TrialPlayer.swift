// Plays one calibration trial's stimulus on a board through a BreathSession (steady levels, no shaping,
// no warm-up), and, on the simulated board, reads back what its output really did.

import Breath
import Calibration
import MotorSession
import SimBoard

final class TrialPlayer {
    let session: BreathSession
    /// The simulated board, when it is one: its output is read back after each trial.
    let world: SimWorld?

    init(session: BreathSession, world: SimWorld?) {
        self.session = session
        self.world = world
    }

    /// The stimulus as a haptic pattern: one continuous event per segment, at its level.
    static func pattern(_ stimulus: Stimulus) -> HapticPattern {
        var events: [HapticEvent] = []
        var t = 0.0
        for s in stimulus.segments {
            if s.level > 0 { events.append(.continuous(at: t, duration: s.seconds, intensity: s.level)) }
            t += s.seconds
        }
        return HapticPattern(events: events, curves: [])
    }

    /// Plays `stimulus` (blocking), returns the board's output as (seconds from its first change, drive)
    /// on the simulated board, nil on a real one.
    func play(_ stimulus: Stimulus) throws(SessionError) -> [(seconds: Double, drive: Double)]? {
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

    /// Mean felt amplitude over the judged stretch of `stimulus`, of the output `timeline` played on `motor`.
    static func judged(_ timeline: [(seconds: Double, drive: Double)], stimulus: Stimulus, motor: ERMModel) -> Double {
        stimulus.judgedAmplitude(of: Stimulus.drive(following: timeline), on: .erm(motor))
    }
}
