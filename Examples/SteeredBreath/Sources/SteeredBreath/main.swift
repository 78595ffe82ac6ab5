// Plays two cycles of a 2-0-2 breath on motorbreath's simulated board in virtual time, turns the strength
// down at the start of the second cycle, and checks on the board's own drive record that the second swell
// peaked lower than the first. Run: swift run --package-path Examples/SteeredBreath
// SPDX-License-Identifier: Apache-2.0

import Breath
import Glibc
import MotorSession
import SerialLink
import SimBoard

let world = SimWorld(pacing: .virtual, seed: 1)         // a board with its own clock, behind a simulated link
let session = BreathSession(link: world.hostLink, clock: world.hostClock)
session.reopen = { () throws(LinkError) -> ByteLink in world.hostLink }

var changed = false
session.onStatus = { status in                           // about ten times a second, on the session's thread
    if !changed && status.elapsed >= 4.0 {                 // the second cycle starts at 4 s
        session.change(.strength(0.3))
        changed = true
    }
}

var options = BreathOptions()
options.length = .cycles(2)
let report = try session.play(try BreathPattern.parse("2-0-2"), breath: options)

// The board's own output: the drive levels it set, on its clock. Split at the middle of the session.
let changes = world.board.port.drive.changes
let clockHz = UInt64(world.spec.clockHz)
let firstTick = changes.first { $0.level != 0 }?.tick ?? 0
let middle = firstTick + 4 * clockHz
let firstPeak = changes.filter { $0.tick < middle }.map { abs(Int($0.level)) }.max() ?? 0
let secondPeak = changes.filter { $0.tick >= middle }.map { abs(Int($0.level)) }.max() ?? 0

print("played \(report.framesPlayed)/\(report.framesTotal) frames, motor off: \(report.motorOffAtExit)")
print("peak drive: first cycle \(firstPeak), second cycle \(secondPeak) (after .strength(0.3))")
guard report.framesPlayed == report.framesTotal, report.motorOffAtExit, changed, secondPeak < firstPeak * 3 / 4 else {
    print("FAILED: the change did not reach the board")
    exit(1)
}
print("ok")
