// Which client id waits for which change's event: a change sent with an id is answered (applied or refused)
// with it, once; a change replaced in the inbox before the session took it is never answered and its id
// goes; with several boards, a change for one board waits for that board's own event.
// SPDX-License-Identifier: Apache-2.0

import MotorSession

/// The ids of changes waiting for the events they cause (a value: ControlHub keeps one under its lock).
public struct IdLedger: Equatable, Sendable {
    /// Changes for the session (every board) sent with an id, oldest first.
    var awaiting: [Waiting] = []
    /// Changes sent to one board of several, with the client's id if it gave one.
    var awaitingBoard: [BoardWaiting] = []
    /// At most this many ids wait (the latest): a change whose event never comes (the session ended) leaves its id.
    public static let limit = 1000

    struct Waiting: Equatable, Sendable {
        var change: BreathChange
        var id: ControlID
    }

    struct BoardWaiting: Equatable, Sendable {
        var board: String
        var change: BreathChange
        var id: ControlID?
    }

    public init() {}

    /// `change` went to the session's inbox with `id`, replacing `replaced` there (still waiting, never
    /// to be made, so its id goes). One the session took already is made and answered with its own id.
    public mutating func sent(_ change: BreathChange, id: ControlID?, replacing replaced: BreathChange?) {
        if let replaced, let i = awaiting.lastIndex(where: { $0.change == replaced }) { awaiting.remove(at: i) }
        if let id { awaiting.append(Waiting(change: change, id: id)) }
        if awaiting.count > Self.limit { awaiting.removeFirst(awaiting.count - Self.limit) }
    }

    /// Several boards: the session's intensity went to every board; `lead`'s event answers for all, with `id`.
    /// Earlier strength changes waiting anywhere are superseded.
    public mutating func sentToEveryBoard(leadChange: BreathChange?, id: ControlID?) {
        awaiting.removeAll { LiveFrames.sameKind($0.change, .strength(0)) }
        awaitingBoard.removeAll { LiveFrames.sameKind($0.change, .strength(0)) }
        if let id, let leadChange { awaiting.append(Waiting(change: leadChange, id: id)) }
    }

    /// Several boards: `change` went to board `board` alone (`isLead`: the board whose events speak for all);
    /// that board's event answers it, named, with `id`.
    public mutating func sentToOneBoard(_ board: String, _ change: BreathChange, isLead: Bool, id: ControlID?) {
        awaitingBoard.removeAll { $0.board == board && LiveFrames.sameKind($0.change, change) }
        if isLead { awaiting.removeAll { LiveFrames.sameKind($0.change, change) } }
        awaitingBoard.append(BoardWaiting(board: board, change: change, id: id))
    }

    /// The session's event for `change`: the id that waited for it (the oldest), now answered.
    public mutating func answer(_ change: BreathChange) -> ControlID? {
        guard let i = awaiting.firstIndex(where: { $0.change == change }) else { return nil }
        return awaiting.remove(at: i).id
    }

    /// Board `board`'s event for `change`: whether a change for that board alone waited for it (then the
    /// event is its own answer, naming the board), and its id.
    public mutating func answer(_ change: BreathChange, board: String) -> (own: Bool, id: ControlID?) {
        guard let i = awaitingBoard.firstIndex(where: { $0.board == board && $0.change == change }) else { return (false, nil) }
        return (true, awaitingBoard.remove(at: i).id)
    }
}
