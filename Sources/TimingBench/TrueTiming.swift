// Every frame a simulated board played, judged against its true clock at the frame's intended host time.

import MotorSession
import SimBoard

public enum TrueTiming {
    /// One played frame: its session index, output tick minus true intended tick (µs, signed), raw duty.
    public struct Frame: Sendable {
        public var index: Int
        public var errorUs: Double
        public var raw: UInt16
    }

    /// The played frames of every boot, mapped to session indices through the player's wire bases.
    public static func frames(world: SimWorld, player: Player) -> [Frame] {
        let hz = Double(world.spec.clockHz)
        var out: [Frame] = []
        for p in world.plays where p.boot < player.wireBases.count && p.boot < world.clockHistory.count {
            let i = player.wireBases[p.boot] + Int(p.index)
            let truth = world.clockHistory[p.boot].ticks(atHostNs: player.intendedNs(i))
            out.append(Frame(index: i, errorUs: (Double(p.tick) - Double(truth)) / hz * 1e6, raw: p.raw))
        }
        return out
    }

    /// Start error and schedule-error percentiles (absolute values).
    public static func judge(world: SimWorld, player: Player) -> (startErrorUs: Double, scheduleErrorUs: Percentiles) {
        let all = frames(world: world, player: player)
        return (abs(all.first { $0.index == 0 }?.errorUs ?? 0), Percentiles(all.map { abs($0.errorUs) }))
    }
}
