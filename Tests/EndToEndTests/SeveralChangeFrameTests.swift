// A control client's change for several boards begins on one frame on every board, also when each board is
// given its own strength (a session-wide intensity with a board's own on top). The oracle: the frame each
// board's inbox holds, on a host clock that moves a whole frame between any two reads (the reads a change
// makes for one board and the next then fall on two frames, as a frame boundary between them would).
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import HostPlatform
import MotorControl
@testable import MotorSession
import SerialLink
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(1))) struct SeveralChangeFrameTests {
    /// One 250 Hz frame (4 ms) later at every read.
    final class SteppingClock: HostClock, @unchecked Sendable {
        private let lock = NSLock()
        private var t: UInt64 = 1_000_000_000
        func nowNs() -> UInt64 {
            lock.lock()
            defer { lock.unlock() }
            t += 4_000_000
            return t
        }
        func advance(seconds: UInt64) {
            lock.lock()
            defer { lock.unlock() }
            t += seconds * 1_000_000_000
        }
    }

    @Test func aSessionIntensityChangesEveryBoardFromOneFrame() throws {
        let clock = SteppingClock()
        let names = ["a", "b", "c"]
        let sessions = names.map { _ in BreathSession(link: InMemoryLink.pair().host, clock: clock) }
        let ensemble = BreathEnsemble(Array(zip(names, sessions)))
        _ = ensemble.play { _, _ throws(SessionError) in PlayReport() }  // the common start instant; nothing plays
        clock.advance(seconds: 10)  // the breath's tenth second or so
        let hub = ControlHub(inbox: ensemble.controls, pattern: try BreathPattern.parse("box"), strength: 1, sharpness: 0.3)
        hub.boards = names
        hub.sendToBoards = { [ensemble] changes in ensemble.change(changes) }
        hub.handle(.boardIntensity(board: "b", value: 0.5))
        _ = sessions.map { $0.controls.take() }
        hub.handle(.intensity(0.8))
        let taken = sessions.map { $0.controls.take() }
        let frames = taken.map { $0.first?.notBeforeFrame }
        let strengths = taken.map { t -> Double? in if case .strength(let s)? = t.first?.change { s } else { nil } }
        #expect(strengths == [0.8, 0.4, 0.8])
        #expect(frames.allSatisfy { $0 != nil } && Set(frames).count == 1, "the boards change from frames \(frames)")
    }
}
