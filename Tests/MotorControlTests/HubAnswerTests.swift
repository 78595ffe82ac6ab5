// The hub's answers to changes made in quick succession, table-driven on a hub and its inbox (the session
// taking changes by hand): each `applied` carries the value its own command sent (and `effective` is base x
// that value), a change replaced in the inbox gets no event; a refused pace, intensity or sharpness is taken
// back in `state`; the palette's `finish` is an end asked for (exit 0), its `stop` not.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
@testable import MotorControl
@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct HubAnswerTests {
    /// A hub on 4-7-8 at strength 0.8, sharpness 0.3, and its inbox.
    static func hub() -> ControlHub {
        ControlHub(inbox: ControlInbox(), pattern: BreathPattern.presets[0], strength: 0.8, sharpness: 0.3)
    }

    static func applied(_ change: BreathChange, frame: Int) -> SessionEvent {
        .applied(change: change, frame: frame, boardTick: UInt64(frame) * 4000, latencyMs: 5, receivedNs: 0)
    }

    /// Commands as (value, id, whether the session takes it before the next command comes).
    struct Burst: Sendable, CustomTestStringConvertible {
        var name: String
        var sharpness = false
        var commands: [(value: Double, id: String?, taken: Bool)]
        var testDescription: String { name }
    }

    static let bursts: [Burst] = [
        Burst(name: "every one taken", commands: [(0.5, "a", true), (0.6, "b", true), (0.9, "c", true)]),
        Burst(name: "one replaced in the inbox", commands: [(0.5, "a", true), (0.7, "b", false), (0.9, "c", true)]),
        Burst(name: "without ids", commands: [(0.5, nil, true), (0.6, nil, true), (0.25, "c", true)]),
        Burst(name: "the same value twice", commands: [(0.5, "a", true), (0.6, nil, false), (0.5, "c", true)]),
        Burst(name: "sharpness", sharpness: true, commands: [(0.1, "a", true), (-0.2, "b", true), (0.4, nil, true)]),
    ]

    /// The session made every change it took, in order; each event's `value` is its own command's.
    @Test(arguments: bursts) func eachAppliedCarriesItsOwnValue(burst: Burst) throws {
        let hub = Self.hub()
        var made: [(change: BreathChange, value: Double, id: String?)] = []
        for (value, id, taken) in burst.commands {
            hub.handle(burst.sharpness ? .sharpness(value) : .intensity(value), id: id.map { .string($0) })
            if taken {
                for t in hub.inbox.take() { made.append((t.change, value, id)) }
            }
        }
        #expect(made.count == burst.commands.filter(\.taken).count)
        for (k, m) in made.enumerated() {
            let line = hub.line(for: Self.applied(m.change, frame: 100 + k), nowNs: 0)
            let e = try jsonObject(line)
            let effective = burst.sharpness ? min(1, max(0, 0.3 + m.value)) : 0.8 * m.value
            #expect(e["value"] as? Double == m.value, "\(burst.name): \(line)")
            #expect(abs((e["effective"] as? Double ?? -1) - effective) < 1e-12, "\(burst.name): \(line)")
            #expect(e["id"] as? String == m.id, "\(burst.name): \(line)")
        }
    }

    /// A refused change's value goes with its answer: a later change to the same effective value (the
    /// sharpness clamped at 1) is answered with its own value.
    @Test func aRefusedChangesValueGoesWithIt() throws {
        let hub = Self.hub()
        hub.handle(.sharpness(0.8), id: .string("a"))
        _ = hub.inbox.take()
        _ = hub.line(for: .refused(change: .sharpness(1), reason: "a file plays"), nowNs: 0)
        hub.handle(.sharpness(0.9), id: .string("b"))
        _ = hub.inbox.take()
        let e = try jsonObject(hub.line(for: Self.applied(.sharpness(1), frame: 10), nowNs: 0))
        #expect(e["value"] as? Double == 0.9 && e["id"] as? String == "b", "\(e)")
    }

    /// A pace the session refuses is taken back (the pace before it, also when it replaced another in
    /// the inbox); one it applies stays.
    @Test func aRefusedPaceIsTakenBack() throws {
        let hub = Self.hub(), before = 60.0 / 19
        hub.handle(.change(.pace(breathsPerMinute: 6)))
        hub.handle(.change(.pace(breathsPerMinute: 7)))  // replaces 6, still waiting
        #expect(hub.bpm == 7)
        _ = hub.line(for: .refused(change: .pace(breathsPerMinute: 7), reason: "a file plays"), nowNs: 0)
        #expect(abs(hub.bpm - before) < 1e-12)
        let state = try jsonObject(hub.stateLine())
        #expect(abs((state["bpm"] as? Double ?? 0) - before) < 1e-9, "\(state)")
        hub.handle(.change(.pace(breathsPerMinute: 5)))
        _ = hub.line(for: Self.applied(.pace(breathsPerMinute: 5), frame: 10), nowNs: 0)
        _ = hub.line(for: .refused(change: .pace(breathsPerMinute: 5), reason: "late"), nowNs: 0)  // answered already
        #expect(hub.bpm == 5)
    }

    /// An intensity or a sharpness the session refuses (a file plays) is taken back: `state` says what plays.
    @Test func aRefusedIntensityOrSharpnessIsTakenBack() throws {
        let hub = Self.hub()
        hub.handle(.intensity(0.5))
        _ = hub.line(for: Self.applied(.strength(0.4), frame: 5), nowNs: 0)
        hub.handle(.intensity(0.9))
        hub.handle(.sharpness(0.4))
        _ = hub.line(for: .refused(change: .strength(0.8 * 0.9), reason: "a file plays"), nowNs: 0)
        _ = hub.line(for: .refused(change: .sharpness(0.7), reason: "a file plays"), nowNs: 0)
        let state = try jsonObject(hub.stateLine())
        #expect(state["intensity"] as? Double == 0.5 && state["sharpness"] as? Double == 0, "\(state)")
    }

    /// Several refused in a row (three key presses while a file plays), or one replaced in the inbox and the
    /// next refused: what plays is the value before the first of them.
    @Test func aChainOfRefusalsGoesBackToTheStart() throws {
        let hub = Self.hub()
        for v in [0.99, 0.98, 0.97] {
            hub.handle(.intensity(v))
            _ = hub.inbox.take()
        }
        for v in [0.99, 0.98, 0.97] { _ = hub.line(for: .refused(change: .strength(0.8 * v), reason: "a file plays"), nowNs: 0) }
        hub.handle(.change(.pace(breathsPerMinute: 6)))
        hub.handle(.change(.pace(breathsPerMinute: 7)))  // replaces 6 in the inbox
        _ = hub.inbox.take()
        hub.handle(.change(.pace(breathsPerMinute: 8)))
        _ = hub.line(for: .refused(change: .pace(breathsPerMinute: 7), reason: "a file plays"), nowNs: 0)
        _ = hub.line(for: .refused(change: .pace(breathsPerMinute: 8), reason: "a file plays"), nowNs: 0)
        #expect(hub.intensity == 1 && abs(hub.bpm - 60.0 / 19) < 1e-12, "intensity \(hub.intensity), bpm \(hub.bpm)")
    }

    /// The palette has no end of its own: `finish` stops it now and is the end asked for; `stop` is not.
    @Test(arguments: [(ControlCommand.change(.finishAfterThisBreath), true), (.stop, false)])
    func thePalettesFinishIsAnEndAskedFor(command: ControlCommand, asked: Bool) {
        let hub = Self.hub()
        hub.arrowsChangeSharpness = true
        hub.handle(command)
        #expect(hub.inbox.stopRequested && hub.stoppedByFinish == asked)
    }
}
