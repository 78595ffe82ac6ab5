// An app on motorbreath's playback layer: two cycles of a 2-0-2 breath on the simulated board in virtual
// time, turned down to 0.3 at 1.0 s of breath (breath time: the warm-up before it excluded; sent half a
// second ahead, so it reaches the board in time), then
// checked on the board's own drive record: the drive first falls at 1.0 s of breath and the second swell
// peaks lower than the first. It prints the true-clock start and schedule errors, which are the CLI's for
// the same seed (`motorbreath --simulate --sim-link ch340 --virtual-time --seed 1 --pattern 2-0-2 --cycles 2 --json`).
// Run: swift run --package-path Examples/SteeredBreath
// SPDX-License-Identifier: Apache-2.0

import Breath
import Glibc
import Playback
import SimBoard

var options = StageOptions()
options.pacing = .virtual                                // as fast as the CPU allows, reproducible from the seed
options.seed = 1
let link = try LinkImpairments.parse("ch340")            // a CH340 USB-serial adapter, as the simulation models it
let stage = try Stage.open(.simulated(impairments: link), options: options)  // a board with its own clock
defer { stage.close() }
let playback = Playback(stage)

final class Once: @unchecked Sendable { var done = false }
let once = Once()
playback.onStatus = { _, status in                      // about ten times a second, on the board's thread
    if !once.done && status.elapsed >= 0.5 {              // breath time, half a second before the change
        playback.change(.strength(0.3), atBreathTime: 1.0)
        once.done = true
    }
}

var breath = BreathOptions()
breath.length = .cycles(2)
let result = playback.play(.breath(BreathPlan(pattern: try BreathPattern.parse("2-0-2"), options: breath)))
let report = result.report

// The board's own output: the drive levels it set, on its clock. Breath time 0 is the warm-up's length after
// the first level (the warm-up floor); the change is the first fall of the drive to below half of what it
// was, after 0.5 s of the inhale (the shaping's own steps on a swell are far smaller).
let world = stage.board.world!
let changes = world.driveChanges
let clockHz = Double(world.spec.clockHz)
let firstTick = changes.first { $0.level != 0 }?.tick ?? 0
func breathTime(_ tick: UInt64) -> Double { Double(tick - firstTick) / clockHz - Shaping.defaultWarmupSeconds }
var fellAt: Double?
for (a, b) in zip(changes, changes.dropFirst()) where breathTime(b.tick) > 0.5 && Int(b.level) * 2 < Int(a.level) {
    fellAt = breathTime(b.tick)
    break
}
let middle = firstTick + UInt64((4 + Shaping.defaultWarmupSeconds) * clockHz)
let firstPeak = changes.filter { $0.tick < middle }.map { Int($0.level) }.max() ?? 0
let secondPeak = changes.filter { $0.tick >= middle }.map { Int($0.level) }.max() ?? 0

print("played \(report.framesPlayed)/\(report.framesTotal) frames, motor off: \(report.motorOffAtExit)")
print("true clock: start error \(report.startErrorUs.map { String($0) } ?? "unknown") µs, schedule error p99 \(report.scheduleErrorUs.map { String($0.p99) } ?? "unknown") µs")
print("the drive first fell at breath time \(fellAt.map { String(format: "%.3f", $0) } ?? "never") s; peaks \(firstPeak) then \(secondPeak)")
guard report.framesPlayed == report.framesTotal, report.motorOffAtExit, once.done, secondPeak < firstPeak * 3 / 4,
      let fell = fellAt, abs(fell - 1.0) <= 0.004, report.startErrorUs != nil else {
    print("FAILED: the change did not reach the board at 1.0 s of breath")
    exit(1)
}
print("ok")
