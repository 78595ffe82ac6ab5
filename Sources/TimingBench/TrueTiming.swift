// Start and schedule error of a session against a simulated board's true clock (no duty checks).

import MotorSession
import SimBoard

public enum TrueTiming {
    public static func judge(world: SimWorld, player: Player) -> (startErrorUs: Double, scheduleErrorUs: Percentiles) {
        let hz = Double(world.spec.clockHz)
        var errors: [Double] = []
        var start = 0.0
        for p in world.plays where p.boot < player.wireBases.count && p.boot < world.clockHistory.count {
            let i = player.wireBases[p.boot] + Int(p.index)
            let truth = world.clockHistory[p.boot].ticks(atHostNs: player.intendedNs(i))
            let e = abs(Double(p.tick) - Double(truth)) / hz * 1e6
            errors.append(e)
            if i == 0 { start = e }
        }
        return (start, Percentiles(errors))
    }
}
