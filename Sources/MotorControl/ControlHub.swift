// Where every way of steering a playing breath meets: keys, JSON lines on stdin, a Unix socket, a page.
// It holds the steering values (SteeringState), the ids waiting for their events (IdLedger) and the boards
// in step (BoardRoster) under one lock, sends the changes to the session's inbox or the boards, answers
// questions, and fans the session's events out to every listener.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import HostPlatform

/// Where every way of steering a playing breath meets (keys, stdin, a socket, an app): the current values,
/// commands turned into the session's changes, events sent to every listener.
public final class ControlHub: @unchecked Sendable {
    public let inbox: ControlInbox
    private let lock = Mutex()
    private var steering: SteeringState
    private var ledger = IdLedger()
    private var roster = BoardRoster()
    private var sinks: [Int: (String) -> Void] = [:]
    private var nextSink = 0
    /// The "prepared" event, sent again to every client that connects later.
    private var greetingEvent: PreparedEvent?
    /// What the session last showed (cycle, phase, link), for `state`; with several boards, each board's.
    private var sessionState: SessionStatus?
    private var boardState: [String: SessionStatus] = [:]

    /// The steering values now (a copy).
    public var state: SteeringState { lock.withLock { steering } }
    /// The pattern as last asked for (a `pattern` command changes it at once, as `pace` changes `bpm`).
    public var pattern: BreathPattern { state.pattern }
    public var intensity: Double { state.intensity }
    public var sharpnessOffset: Double { state.sharpnessOffset }
    public var bpm: Double { state.bpm }
    public var paused: Bool { state.paused }
    /// The session's cycles (nil: it loops, or this is the palette): seeks past them are refused.
    public var cycles: Int? {
        get { lock.withLock { sessionCycles } }
        set { lock.withLock { sessionCycles = newValue } }
    }
    private var sessionCycles: Int?
    /// A `finish` ended a vibration that has no end of its own (the palette) at once: the end it asked
    /// for, which exits 0 as a breath played to its end does (docs/control.md), not 130 as a `stop`.
    public var stoppedByFinish: Bool { lock.withLock { finishStopped } }
    private var finishStopped = false
    /// The values clients sent for the intensity and sharpness changes still waiting for their event, oldest
    /// first: each `applied` carries its own change's `value`, not a later one's.
    private var sentValues: [(change: BreathChange, value: Double)] = []
    /// In the palette, left/right change the sharpness (there is no pace to change).
    public var arrowsChangeSharpness: Bool {
        get { state.steady }
        set { lock.withLock { steering.steady = newValue } }
    }
    /// The "prepared" event as a line, sent again to every client that connects later (so none misses what
    /// board it is); nil until ``greet(_:)``.
    public var greeting: String? { lock.withLock { greetingEvent?.line } }
    /// Several boards in step: their names, in order (the first playing speaks for all, `leadBoard`), and where a
    /// change for every board or for one goes (`sendToBoards`). Empty: one board.
    public var boards: [String] {
        get { lock.withLock { roster.names } }
        set { lock.withLock { roster.names = newValue } }
    }
    /// The board whose events stand for every board: the first playing (nil: one board).
    public var leadBoard: String? { lock.withLock { roster.lead } }
    /// Board `name` ended for good while the others play on: its events no longer speak for them.
    public func boardEnded(_ name: String) { lock.withLock { roster.end(name) } }
    /// Board `name` is reconnecting (`away`) or playing again: while away, the next board speaks for all.
    public func boardAway(_ name: String, _ away: Bool) { lock.withLock { roster.setAway(name, away) } }
    /// Where changes for named boards go, each board its own change, all from one frame (`BreathEnsemble.change(_:)`).
    public var sendToBoards: (([(board: String, change: BreathChange)]) -> Void)?

    public init(inbox: ControlInbox, pattern: BreathPattern, strength: Double, sharpness: Double) {
        self.inbox = inbox
        steering = SteeringState(pattern: pattern, strength: strength, sharpness: sharpness)
    }

    /// The board is ready: `hello` (the `prepared` event) goes to every client now and to each that connects
    /// later, each time followed by the `state` event.
    public func greet(_ hello: PreparedEvent) {
        greetLock.withLock {
            lock.withLock { greetingEvent = hello }
            emit(hello.line)
            emit(stateLine())
        }
    }

    /// A client joins: `add` makes it one of the listeners and, when the board is ready, `send` gives it
    /// `prepared` and `state`; one step against ``greet(_:)``, so every client sees `prepared` first and
    /// once, whether it joined before the greeting, during it or after.
    public func welcome(add: () -> Void, send: (String) -> Void) {
        greetLock.withLock {
            add()
            if let hello = greeting {
                send(hello)
                send(stateLine())
            }
        }
    }

    /// Orders `greet` against `welcome` (the listeners' own locks are taken inside it, never around it).
    private let greetLock = Mutex()

    /// Notes what the session shows now (the player's status, about 10 times a second), for `state`.
    public func noteSessionState(_ status: SessionStatus) { lock.withLock { sessionState = status } }

    /// Notes what one board of several shows now (its frames, its link), for `state`'s `boards`.
    public func noteBoardState(_ board: String, _ status: SessionStatus) { lock.withLock { boardState[board] = status } }

    /// The `state` event: every current value, and where the breath and the link are.
    public func stateLine(id: ControlID? = nil) -> String { lock.withLock { stateEventLocked(id: id).line } }

    private func stateEventLocked(id: ControlID?) -> StateEvent {
        steering.stateEvent(status: sessionState, boards: roster.names, boardStatus: boardState, id: id)
    }

    /// A new breath session in place of the one that played (serve, after an AHAP file): the pattern as
    /// last asked for, `options` with the strength (base x intensity) and sharpness (base + offset) the
    /// clients left, not paused; and the pace, when a client changed it, as a change to send once the
    /// board is prepared (it takes effect at the first phase boundary, as a pace change does).
    public func restart(_ options: BreathOptions) -> (pattern: BreathPattern, options: BreathOptions, pace: BreathChange?) {
        lock.withLock { steering.restart(options) }
    }

    /// What the live line shows: "intensity 80%  pace 5.5/min" (and "paused").
    public var summary: String { state.summary }

    /// Makes `command`; returns the line to answer with (an error, a refusal, an answer), if any.
    @discardableResult
    public func handle(_ command: ControlCommand, id: ControlID? = nil) -> String? {
        lock.withLock {
            let outcome = steering.take(command, boards: roster.names, routed: sendToBoards != nil)
            switch outcome {
            case .change(let change):
                if case .pattern(let p, _) = change { greetingEvent?.pattern = p.name }
                // The id waits for the event this change causes; one this change replaced in the inbox
                // (never to be made) goes, with the value it was sent with.
                let replaced = inbox.send(change)
                ledger.sent(change, id: id, replacing: replaced)
                steering.forget(replaced, by: change)
                noteSentValue(command, change, replacing: replaced)
            case .everyBoard(let changes):
                // The first board's `applied` answers for all.
                ledger.sentToEveryBoard(leadChange: changes.first { $0.board == roster.lead }?.change, id: id)
                sendToBoards?(changes.map { ($0.board, $0.change) })
            case .oneBoard(let c):
                ledger.sentToOneBoard(c.board, c.change, isLead: c.board == roster.lead, id: id)
                sendToBoards?([(c.board, c.change)])
            case .refused(let command, let reason):
                return RefusedEvent(command: command, reason: reason, id: id).line
            case .error(let message):
                return ErrorEvent(message: message, id: id).line
            case .stop:
                if case .change(.finishAfterThisBreath) = command { finishStopped = true }
                inbox.requestStop()
            case .answer(.state):
                return stateEventLocked(id: id).line
            case .answer(.patterns):
                return ControlEvents.patterns(id: id)
            case .answer:
                return ClockEvent(unixMs: ControlEvents.wallClock(agoNs: 0).unixMs, id: id).line
            }
            return nil
        }
    }

    /// The session's event as a line, with what the client sent beside what plays: `applied` for
    /// intensity and sharpness carries `value` (as sent), `effective` (as played) and `base` (the
    /// session's own strength or sharpness).
    public func line(for event: SessionEvent, nowNs: UInt64) -> String {
        let message = ControlEvents.message(for: event, nowNs: nowNs)
        guard let caused = Self.change(causing: event) else { return message.line }
        return lock.withLock {
            let id = ledger.answer(caused)
            if steering.answered(caused, refused: { if case .refused = event { true } else { false } }()) {
                greetingEvent?.pattern = steering.pattern.name
            }
            switch message {
            case .applied(var e):
                e.id = id
                switch caused {
                case .strength(let s): (e.value, e.effective, e.base) = (sentValue(caused) ?? steering.intensity, s, steering.baseStrength)
                case .sharpness(let s): (e.value, e.effective, e.base) = (sentValue(caused) ?? steering.sharpnessOffset, s, steering.baseSharpness)
                default: break
                }
                return e.line
            case .refused(var e):
                e.id = id
                _ = sentValue(caused)  // answered: its value is no later change's
                return e.line
            case .phase(let e):
                return e.line
            }
        }
    }

    /// Keeps the value `command` was sent with (intensity, sharpness) for its change's event; the waiting
    /// change it replaced in the inbox (never made, never answered) goes.
    private func noteSentValue(_ command: ControlCommand, _ change: BreathChange, replacing replaced: BreathChange?) {
        if let replaced, let i = sentValues.lastIndex(where: { $0.change == replaced }) { sentValues.remove(at: i) }
        switch command {
        case .intensity(let v), .sharpness(let v): sentValues.append((change, v))
        default: return
        }
        if sentValues.count > IdLedger.limit { sentValues.removeFirst(sentValues.count - IdLedger.limit) }
    }

    /// The value the oldest change equal to `change` was sent with, now answered (nil: none kept, such as an
    /// app's `BreathChange` sent without a command).
    private func sentValue(_ change: BreathChange) -> Double? {
        guard let i = sentValues.firstIndex(where: { $0.change == change }) else { return nil }
        return sentValues.remove(at: i).value
    }

    /// Several boards: board `board`'s event as a line, or nil when it is not one to send: the lead board's
    /// events (the first still playing) stand for every board (they play in step), except the answer to a
    /// change sent to one board, which names it (`board`, and its own `value`).
    public func line(for event: SessionEvent, nowNs: UInt64, board: String) -> String? {
        let own: (own: Bool, id: ControlID?) = lock.withLock {
            guard let caused = Self.change(causing: event) else { return (false, nil) }
            return ledger.answer(caused, board: board)
        }
        guard own.own else { return board == leadBoard ? line(for: event, nowNs: nowNs) : nil }
        switch ControlEvents.message(for: event, nowNs: nowNs) {
        case .applied(var e):
            e.board = board
            e.id = own.id
            if case .applied(.strength(let s), _, _, _, _) = event {
                lock.withLock {
                    (e.value, e.effective, e.base) = (steering.boardIntensity[board] ?? 1, s, steering.baseStrength)
                    e.intensity = steering.intensity
                }
            }
            return e.line
        case .refused(var e):
            e.board = board
            e.id = own.id
            return e.line
        case .phase(let e):
            return e.line
        }
    }

    /// The change an `applied` or `refused` event answers (nil for `phase`).
    private static func change(causing event: SessionEvent) -> BreathChange? {
        switch event {
        case .applied(let change, _, _, _, _), .refused(let change, _): change
        case .phase: nil
        }
    }

    /// A line of the control protocol from a program; the error line to answer with, if any.
    public func handle(line: String) -> String? {
        // A line of only whitespace is ignored, as an empty one is (docs/control.md).
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return nil }
        let id = ControlCommand.id(in: line)
        do {
            return handle(try ControlCommand.parse(line, pattern: pattern, cycles: cycles), id: id)
        } catch {
            return ErrorEvent(message: error.description, id: id).line
        }
    }

    /// Keys: up/down intensity, right/left pace (the palette: sharpness), space pause/resume, f finish, q quit.
    public func key(_ key: Key) { handle(state.command(for: key)) }

    /// A key of the terminal controls.
    public enum Key: Sendable { case up, down, left, right, space, finish, quit }

    /// Adds a listener for events; returns its id for `removeSink`.
    public func addSink(_ sink: @escaping (String) -> Void) -> Int {
        lock.withLock {
            nextSink += 1
            sinks[nextSink] = sink
            return nextSink
        }
    }

    public func removeSink(_ id: Int) { lock.withLock { _ = sinks.removeValue(forKey: id) } }

    /// Sends an event line to every listener.
    public func emit(_ line: String) {
        let all = lock.withLock { Array(sinks.values) }
        for s in all { s(line) }
    }
}
