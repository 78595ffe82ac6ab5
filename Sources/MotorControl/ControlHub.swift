// Where every way of steering a playing breath meets: keys, JSON lines on stdin, a Unix socket. It keeps
// the current intensity, sharpness, pace and pattern (keys step them), turns commands into changes for the
// session's inbox, and sends the session's events to every listener.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import HostPlatform

/// Where every way of steering a playing breath meets (keys, stdin, a socket, an app): the current values,
/// commands turned into the session's changes, events sent to every listener.
public final class ControlHub: @unchecked Sendable {
    public let inbox: ControlInbox
    /// The pattern as last asked for (a `pattern` command changes it at once, as `pace` changes `bpm`).
    public var pattern: BreathPattern { lock.withLock { currentPattern } }
    private var currentPattern: BreathPattern
    private let baseStrength: Double
    private let baseSharpness: Double
    private let lock = Mutex()
    private var sinks: [Int: (String) -> Void] = [:]
    private var nextSink = 0
    public private(set) var intensity = 1.0
    public private(set) var sharpnessOffset = 0.0
    public private(set) var bpm: Double
    public private(set) var paused = false
    /// The session's cycles (nil: it loops, or this is the palette): seeks past them are refused.
    public var cycles: Int?
    /// In the palette, left/right change the sharpness (there is no pace to change).
    public var arrowsChangeSharpness = false
    /// The "prepared" event as a line, sent again to every client that connects later (so none misses what
    /// board it is); nil until ``greet(_:)``.
    public var greeting: String? { lock.withLock { greetingEvent?.line } }
    private var greetingEvent: PreparedEvent?
    /// Changes sent with a client's id, waiting for the event they cause (at most `awaitingLimit`, the latest).
    private var awaiting: [(change: BreathChange, id: ControlID)] = []
    static let awaitingLimit = 1000
    /// Pattern changes the session has not yet applied or refused, with what played before each: a refused
    /// one is taken back, so `state` never names a pattern that will not play.
    private var unanswered: [(change: BreathChange, pattern: BreathPattern, bpm: Double)] = []
    /// What the session last showed (cycle, phase, link), for `state`.
    private var sessionState: SessionStatus?
    /// Several boards in step: their names, in order (the first playing speaks for all, `leadBoard`), and where a
    /// change for every board or for one goes (`sendToBoards`). Empty: one board.
    public var boards: [String] {
        get { lock.withLock { boardNames } }
        set { lock.withLock { boardNames = newValue } }
    }
    private var boardNames: [String] = []
    /// The boards that ended for good (`boardEnded`) or are away for now (`boardAway`): the first board
    /// playing speaks for all.
    private var endedBoards: Set<String> = []
    private var awayBoards: Set<String> = []
    /// The board whose events stand for every board: the first playing (nil: one board).
    public var leadBoard: String? { lock.withLock { leadLocked } }
    private var leadLocked: String? {
        boardNames.first { !endedBoards.contains($0) && !awayBoards.contains($0) }
            ?? boardNames.first { !endedBoards.contains($0) } ?? boardNames.first
    }
    /// Board `name` ended for good while the others play on: its events no longer speak for them.
    public func boardEnded(_ name: String) { lock.withLock { _ = endedBoards.insert(name) } }
    /// Board `name` is reconnecting (`away`) or playing again: while away, the next board speaks for all.
    public func boardAway(_ name: String, _ away: Bool) {
        lock.withLock { if away { awayBoards.insert(name) } else { awayBoards.remove(name) } }
    }
    /// Where changes for named boards go, each board its own change, all from one frame (`BreathEnsemble.change(_:)`).
    public var sendToBoards: (([(board: String, change: BreathChange)]) -> Void)?
    /// Each board's own intensity (`"board"` on `intensity`), 1 unless a client set it.
    private var boardIntensity: [String: Double] = [:]
    /// Changes sent to one board, waiting for that board's event (its name, the change, the client's id).
    private var awaitingBoard: [(board: String, change: BreathChange, id: ControlID?)] = []
    /// Each board's own status (frames, link), for `state`'s `boards`.
    private var boardState: [String: SessionStatus] = [:]

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
        StateEvent(pattern: currentPattern.name, intensity: intensity, strength: min(1, baseStrength * intensity),
                   sharpness: sharpnessOffset, sharpnessEffective: min(1, max(0, baseSharpness + sharpnessOffset)),
                   bpm: arrowsChangeSharpness ? nil : bpm, paused: paused, status: sessionState,
                   boards: boardNames.isEmpty ? nil : boardNames.map {
                       BoardState(name: $0, intensity: boardIntensity[$0] ?? 1, strength: strength(of: $0), status: boardState[$0])
                   }, id: id)
    }

    /// The strength board `name` plays at: base x the session's intensity x its own (under the lock).
    private func strength(of name: String) -> Double { min(1, baseStrength * intensity * (boardIntensity[name] ?? 1)) }

    public init(inbox: ControlInbox, pattern: BreathPattern, strength: Double, sharpness: Double) {
        self.inbox = inbox
        currentPattern = pattern
        baseStrength = strength
        baseSharpness = sharpness
        bpm = 60 / pattern.cycleSeconds
    }

    /// A new breath session in place of the one that played (serve, after an AHAP file): the pattern as
    /// last asked for, `options` with the strength (base x intensity) and sharpness (base + offset) the
    /// clients left, not paused; and the pace, when a client changed it, as a change to send once the
    /// board is prepared (it takes effect at the first phase boundary, as a pace change does).
    public func restart(_ options: BreathOptions) -> (pattern: BreathPattern, options: BreathOptions, pace: BreathChange?) {
        lock.withLock {
            var o = options
            o.strength = min(1, baseStrength * intensity)
            o.sharpness = min(1, max(0, baseSharpness + sharpnessOffset))
            paused = false
            let own = 60 / currentPattern.cycleSeconds
            return (currentPattern, o, abs(bpm - own) > 1e-9 && !arrowsChangeSharpness ? .pace(breathsPerMinute: bpm) : nil)
        }
    }

    /// What the live line shows: "intensity 80 %  pace 5.5/min" (and "paused").
    public var summary: String {
        lock.withLock {
            var s = "intensity \(Int((intensity * 100).rounded()))%  "
            s += arrowsChangeSharpness ? "sharpness \(String(format: "%.1f", min(1, max(0, baseSharpness + sharpnessOffset))))"
                : "pace \(String(format: "%.1f", bpm))/min"
            if paused { s += "  paused" }
            return s
        }
    }

    /// Makes `command`; returns the error line to answer with, if any.
    @discardableResult
    public func handle(_ command: ControlCommand, id: ControlID? = nil) -> String? {
        // An app's command (the parser refuses these already): a value that is not a finite number would
        // make the strength NaN and trap the live line's percent (Int(NaN)); answered as the parser would.
        let value: (name: String, field: String, v: Double, range: String)? = switch command {
        case .intensity(let v), .boardIntensity(_, let v): ("intensity", "value", v, "0...1")
        case .sharpness(let v): ("sharpness", "value", v, "-1...1")
        case .change(.pace(let v)): ("pace", "bpm", v, "1...30")
        case .change(.strength(let v)), .change(.sharpness(let v)): ("intensity", "value", v, "0...1")
        default: nil
        }
        if let value, !value.v.isFinite {
            return ErrorEvent(message: "\(value.name): \"\(value.field)\" must be a finite number in \(value.range)", id: id).line
        }
        return lock.withLock {
            func send(_ change: BreathChange) {
                // The id waits for the event this change causes. A change this one replaced in the inbox (still
                // waiting there, never made) gets no event, and its id goes; one the session took already is
                // made and answered, with its own id (a pause, then a resume 20 ms later, each kept theirs only
                // if the pause was still waiting: issue 39).
                if let replaced = inbox.send(change), let i = awaiting.lastIndex(where: { $0.change == replaced }) {
                    awaiting.remove(at: i)
                }
                if let id { awaiting.append((change, id)) }
                // (A change whose event never comes, the session having ended, leaves its id: keep the latest.)
                if awaiting.count > ControlHub.awaitingLimit { awaiting.removeFirst(awaiting.count - ControlHub.awaitingLimit) }
            }
            switch command {
            case .intensity(let v) where !boardNames.isEmpty && sendToBoards != nil:
                // Several boards: each at its own strength (base x intensity x its own); the first board's
                // `applied` answers for all.
                intensity = v
                awaiting.removeAll { LiveFrames.sameKind($0.change, .strength(0)) }
                awaitingBoard.removeAll { LiveFrames.sameKind($0.change, .strength(0)) }
                if let id, let lead = leadLocked { awaiting.append((.strength(strength(of: lead)), id)) }
                sendToBoards?(boardNames.map { ($0, .strength(strength(of: $0))) })
            case .intensity(let v):
                intensity = v
                send(.strength(min(1, baseStrength * v)))
            case .boardIntensity(let name, let v):
                guard boardNames.contains(name), let route = sendToBoards else {
                    let why = boardNames.isEmpty ? "names one of several boards playing in step; this session plays one"
                        : "must be one of the boards: \(boardNames.joined(separator: ", "))"
                    return ErrorEvent(message: "intensity: \"board\" \(why)", id: id).line
                }
                boardIntensity[name] = v
                let change = BreathChange.strength(strength(of: name))
                awaitingBoard.removeAll { $0.board == name && LiveFrames.sameKind($0.change, change) }
                if name == leadLocked { awaiting.removeAll { LiveFrames.sameKind($0.change, change) } }
                awaitingBoard.append((name, change, id))
                route([(name, change)])
            case .sharpness(let v):
                sharpnessOffset = v
                send(.sharpness(min(1, max(0, baseSharpness + v))))
            case .change(.pace) where arrowsChangeSharpness:
                return RefusedEvent(command: "pace", reason: "the palette plays a steady vibration: it has no pace", id: id).line
            case .state:
                return stateEventLocked(id: id).line
            case .patterns:
                return ControlEvents.patterns(id: id)
            case .clock:
                return ClockEvent(unixMs: ControlEvents.wallClock(agoNs: 0).unixMs, id: id).line
            case .change(.pattern) where arrowsChangeSharpness:
                return RefusedEvent(command: "pattern", reason: "the palette plays a steady vibration: it has no pattern", id: id).line
            case .change(.finishAfterThisBreath) where arrowsChangeSharpness:
                inbox.requestStop()  // the palette's one long phase never ends by itself: finish ends it now
            case .change(let change):
                switch change {
                case .pace(let b): bpm = b
                case .pause: paused = true
                case .resume: paused = false
                case .seek: paused = false
                case .pattern(let p, _):
                    unanswered.append((change, currentPattern, bpm))
                    currentPattern = p
                    bpm = 60 / p.cycleSeconds
                    greetingEvent?.pattern = p.name
                default: break
                }
                send(change)
            case .stop:
                inbox.requestStop()
            }
            return nil
        }
    }

    /// The session's event as a line, with what the client sent beside what plays: `applied` for
    /// intensity and sharpness carries `value` (as sent), `effective` (as played) and `base` (the
    /// session's own strength or sharpness).
    public func line(for event: SessionEvent, nowNs: UInt64) -> String {
        lineFields(for: event, nowNs: nowNs)
    }

    /// Several boards: board `board`'s event as a line, or nil when it is not one to send: the lead board's
    /// events (the first still playing) stand for every board (they play in step), except the answer to a change sent to one board,
    /// which names it (`board`, and its own `value`).
    public func line(for event: SessionEvent, nowNs: UInt64, board: String) -> String? {
        let caused: BreathChange? = switch event {
        case .applied(let change, _, _, _, _), .refused(let change, _): change
        case .phase: nil
        }
        let own: (board: String, change: BreathChange, id: ControlID?)? = lock.withLock {
            guard let caused, let i = awaitingBoard.firstIndex(where: { $0.board == board && $0.change == caused }) else { return nil }
            return awaitingBoard.remove(at: i)
        }
        if let own {
            switch ControlEvents.message(for: event, nowNs: nowNs) {
            case .applied(var e):
                e.board = board
                e.id = own.id
                if case .strength(let s) = own.change {
                    lock.withLock {
                        e.value = boardIntensity[board] ?? 1
                        e.effective = s
                        e.base = baseStrength
                        e.intensity = intensity
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
        guard board == leadBoard else { return nil }
        return lineFields(for: event, nowNs: nowNs)
    }

    private func lineFields(for event: SessionEvent, nowNs: UInt64) -> String {
        let message = ControlEvents.message(for: event, nowNs: nowNs)
        let caused: BreathChange? = switch event {
        case .applied(let change, _, _, _, _), .refused(let change, _): change
        case .phase: nil
        }
        guard let caused else { return message.line }
        return lock.withLock {
            var id: ControlID?
            if let i = awaiting.firstIndex(where: { $0.change == caused }) {
                id = awaiting[i].id
                awaiting.remove(at: i)
            }
            if let i = unanswered.firstIndex(where: { $0.change == caused }) {
                let before = unanswered.remove(at: i)
                // Refused, and nothing asked since: the pattern playing is still the one before it.
                if case .refused = event, case .pattern(let p, _) = caused, currentPattern == p, unanswered.isEmpty {
                    currentPattern = before.pattern
                    bpm = before.bpm
                    greetingEvent?.pattern = before.pattern.name
                }
            }
            switch message {
            case .applied(var e):
                e.id = id
                switch caused {
                case .strength(let s):
                    e.value = intensity
                    e.effective = s
                    e.base = baseStrength
                case .sharpness(let s):
                    e.value = sharpnessOffset
                    e.effective = s
                    e.base = baseSharpness
                default: break
                }
                return e.line
            case .refused(var e):
                e.id = id
                return e.line
            case .phase(let e):
                return e.line
            }
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

    // Keys: up/down intensity, right/left pace, space pause/resume, f finish, q quit.
    public func key(_ key: Key) {
        switch key {
        case .up: handle(.intensity(min(1, (intensity * 10).rounded() / 10 + 0.1)))
        case .down: handle(.intensity(max(0, (intensity * 10).rounded() / 10 - 0.1)))
        case .right where arrowsChangeSharpness: handle(.sharpness(min(1 - baseSharpness, sharpnessOffset + 0.1)))
        case .left where arrowsChangeSharpness: handle(.sharpness(max(-baseSharpness, sharpnessOffset - 0.1)))
        case .right: handle(.change(.pace(breathsPerMinute: min(30, bpm + 0.5))))
        case .left: handle(.change(.pace(breathsPerMinute: max(1, bpm - 0.5))))
        case .space: handle(.change(paused ? .resume : .pause))
        case .finish: handle(.change(.finishAfterThisBreath))
        case .quit: handle(.stop)
        }
    }

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
