// An app that serves the control protocol (docs/control.md) from its own playback: a looping 2-0-2 breath
// on the simulated board, a ControlHub attached to the playback, a ControlSocket any program may connect
// to. Who does what: the playback greets the hub's clients (`prepared`, then `state`) once the board is
// prepared and sends the session's events through it; the app sends the last event (`tellEnd`: `finished`
// or `error` with the report) and closes the socket, which flushes it to every client.
// A client in the same process (it could be any program) speaks the typed messages: it asks for `state`,
// softens the breath in cycle 1's exhale, and ends the loop with `finish` in cycle 2; the app checks that
// each answer came, with its id.
// Run: swift run --package-path Examples/ServedBreath
// SPDX-License-Identifier: Apache-2.0

import Breath
import Glibc
import MotorControl
import Playback
import SimBoard

let path = "/tmp/served-breath-\(getpid()).sock"
let stage = try Stage.open(.simulated(impairments: LinkImpairments()))  // a board with its own clock, in real time
defer { stage.close() }
let playback = Playback(stage)
var breath = BreathOptions()
breath.strength = 0.8
let content = PlaybackContent.breath(BreathPlan(pattern: try BreathPattern.parse("2-0-2"), options: breath), loop: true)

// The server: a hub on the playback (its pattern, strength and sharpness are the breath's), attached before
// the first command can arrive, and a socket serving it (0600: only this user).
let hub = playback.makeHub(for: content)
playback.attach(hub)
let server = try ControlSocket(path: path, hub: hub)

let client = SocketClient(path: path)
client.start()

// The app: play (the playback prepares the board and greets the hub's clients), then the last event, then
// close the socket (the remaining events reach every client first, for up to a second).
let result = playback.play(content)
playback.tellEnd(result)
server.close()
client.join()
let seen = client.seen

let state = seen.events.compactMap { $0 as? StateEvent }.first { $0.id == 1 }
let soft = seen.events.compactMap { $0 as? AppliedEvent }.first { $0.id == "soft" }
let end = seen.events.compactMap { $0 as? AppliedEvent }.first { $0.id == "end" }
let finished = seen.events.compactMap { $0 as? FinishedEvent }.first
let phases = seen.events.compactMap { $0 as? PhaseEvent }.map { "\($0.cycle) \($0.phase.rawValue)" }
print("events: \(seen.events.map { type(of: $0).event }.joined(separator: " "))")
print("phases: \(phases.joined(separator: ", "))")
print("state (id 1): pattern \(state?.pattern ?? "none"), strength \(state?.strength ?? -1)")
print("intensity 0.5 (id soft): effective \(soft?.effective ?? -1) from frame \(soft?.frame ?? -1), \(soft?.latencyMs ?? -1) ms")
print("finish (id end): applied at frame \(end?.frame ?? -1); report: frames lost \(finished?.report.object?["frames_lost"]?.double ?? -1)")
guard seen.problems.isEmpty, seen.events.first is PreparedEvent, state?.strength == 0.8, soft?.effective == 0.4, end != nil,
      finished?.report.object?["frames_lost"]?.double == 0, phases.last == "2 exhale", result.failure == nil else {
    print("FAILED: \(seen.problems.joined(separator: "; "))")
    exit(1)
}
print("ok")
