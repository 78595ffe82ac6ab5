// Steering a session while it plays: changes arrive from any thread (keys, a socket, an app) into an
// inbox the session's loop empties; what happened goes out as events (a phase began, a change reached
// the motor), each with the board tick it happened at.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SerialLink

/// Changes waiting for the session's loop. The latest change of each kind wins: changes never queue up
/// behind each other (five quick "stronger" presses become one strength).
public final class ControlInbox: @unchecked Sendable {
    private let lock = Mutex()
    /// The session's clock (virtual in simulations): changes are stamped with it as they arrive.
    var clock: HostClock = SystemClock()
    private var waiting: [(change: BreathChange, receivedNs: UInt64, notBeforeFrame: Int?)] = []
    /// Set by `requestStop()`: the session ends as if interrupted (motor off).
    private var stop = false

    public init() {}

    /// Wakes the session's loop from its wait for the board (set by the player: its link's `wake`).
    var wake: @Sendable () -> Void = {}

    /// Returns the change of its kind it replaced (still waiting, never made; nil: none was waiting).
    @discardableResult
    public func send(_ change: BreathChange) -> BreathChange? { send(change, notBeforeFrame: nil) }

    /// `send`, made from session frame `notBeforeFrame` at the earliest (several boards then change from one
    /// frame: `BreathEnsemble.change`); nil: from the first frame the board may still change. Returns the
    /// waiting change it replaced, if any: one the session had taken already is made, and answered, as well.
    @discardableResult
    public func send(_ change: BreathChange, notBeforeFrame: Int?) -> BreathChange? {
        let receivedNs = clock.nowNs()
        let replaced: BreathChange? = lock.withLock {
            let old = waiting.last { LiveFrames.sameKind($0.change, change) }?.change
            waiting.removeAll { LiveFrames.sameKind($0.change, change) }
            waiting.append((change, receivedNs, notBeforeFrame))
            return old
        }
        wake()
        return replaced
    }

    public func requestStop() {
        lock.withLock { stop = true }
        wake()
    }

    /// Forgets a stop (and any change) left from an earlier breath.
    func reset() {
        lock.withLock {
            stop = false
            waiting.removeAll()
        }
    }
    public var stopRequested: Bool { lock.withLock { stop } }

    func take() -> [(change: BreathChange, receivedNs: UInt64, notBeforeFrame: Int?)] {
        lock.withLock {
            defer { waiting.removeAll() }
            return waiting
        }
    }
}

/// What a session reports while it plays.
public enum SessionEvent: Sendable {
    /// A phase of `pattern` (its name) began on the motor: at `boardTick` (its frame's tick), `hostNs` on the host's monotonic clock.
    case phase(kind: BreathPhase, cycle: Int, pattern: String, frame: Int, boardTick: UInt64, hostNs: UInt64)
    /// A change reached the motor: its first changed frame was output at `boardTick`, `latencyMs` after the
    /// change arrived (at `receivedNs` on the session's clock). A pace change waits for the next phase
    /// boundary by design.
    case applied(change: BreathChange, frame: Int, boardTick: UInt64, latencyMs: Double, receivedNs: UInt64)
    /// A change that cannot be made (this session has no live plan, say).
    case refused(change: BreathChange, reason: String)
}

extension LiveFrames {
    /// Whether two changes replace each other in the inbox (pause and resume are one toggle); the control
    /// hub matches a change's acknowledgement to its command by the same rule.
    public static func sameKind(_ a: BreathChange, _ b: BreathChange) -> Bool {
        switch (a, b) {
        case (.strength, .strength), (.sharpness, .sharpness), (.pace, .pace), (.seek, .seek): return true
        case (.pause, .pause), (.pause, .resume), (.resume, .pause), (.resume, .resume): return true
        case (.finishAfterThisBreath, .finishAfterThisBreath), (.pattern, .pattern): return true
        default: return false
        }
    }
}
