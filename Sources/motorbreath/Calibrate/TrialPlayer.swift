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
        var m = motor.atRest
        let dt = 0.001
        let end = stimulus.seconds
        var sum = 0.0, n = 0
        var k = 0
        var t = 0.0
        while t < end - 1e-12 {
            while k + 1 < timeline.count && timeline[k + 1].seconds <= t { k += 1 }
            let drive = timeline.isEmpty || timeline[0].seconds > t ? 0 : timeline[k].drive
            m.advance(drive: drive, seconds: dt)
            t += dt
            if t > end - stimulus.judgedSeconds + 1e-12 {
                sum += m.amplitude
                n += 1
            }
        }
        return n > 0 ? sum / Double(n) : 0
    }
}
