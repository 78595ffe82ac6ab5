// A session in a simulated world that livelocks ends with the world's error instead of hanging (the world's
// watchdog: Tests/SimBoardTests/LivelockTests.swift). A time limit cannot stop a loop that never yields.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LivelockedSessionTests {
    /// The world's time stands still 2 s into the breath. The session must not try to reconnect: a
    /// reconnect pauses on the session's clock, virtual time here, which no longer moves.
    @Test func aSessionInALivelockedWorldEndsWithTheError() throws {
        var s = TimingScenario(impairments: try LinkImpairments.parse("latency=16ms,jitter=8ms"))
        s.minutes = 0.2
        do {
            _ = try SimulatedSession.run(s, during: [(atS: 2, action: { $0.timeStandsStill = true })], recordPlays: false)
            Issue.record("the session ended normally in a world whose time stood still")
        } catch {
            #expect("\(error)".contains("livelock"), "\(error)")
        }
    }
}
