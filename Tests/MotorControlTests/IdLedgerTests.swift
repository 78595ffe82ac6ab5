// IdLedger and BoardRoster, table-driven: each id answered once by its change's event, a replaced change's
// id gone, the newest thousand kept; a change for one board answered by that board's own event; the lead
// board the first one playing.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorControl
import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct IdLedgerTests {
    /// A step on the ledger: a change sent (with an id, replacing one in the inbox), or an event answered.
    enum Step: Sendable {
        case sent(BreathChange, ControlID?, replacing: BreathChange?)
        case answered(BreathChange, ControlID?)
    }

    static let tables: [(String, [Step])] = [
        ("answered once", [.sent(.pause, "p", replacing: nil), .answered(.pause, "p"), .answered(.pause, nil)]),
        ("no id, no echo", [.sent(.pause, nil, replacing: nil), .answered(.pause, nil)]),
        ("taken, then another: each its own", [.sent(.pause, "p", replacing: nil), .sent(.resume, "r", replacing: nil),
                                               .answered(.pause, "p"), .answered(.resume, "r")]),
        ("replaced in the inbox: its id goes", [.sent(.pause, "p", replacing: nil), .sent(.resume, "r", replacing: .pause),
                                                .answered(.pause, nil), .answered(.resume, "r")]),
        ("the same change twice: oldest first", [.sent(.pause, 1, replacing: nil), .sent(.pause, 2, replacing: nil),
                                                 .answered(.pause, 1), .answered(.pause, 2)]),
        ("another change's event: no id", [.sent(.strength(0.5), 1, replacing: nil), .answered(.strength(0.4), nil), .answered(.strength(0.5), 1)]),
    ]

    @Test(arguments: 0..<tables.count)
    func eachIdIsAnsweredByItsChange(index: Int) {
        var ledger = IdLedger()
        for step in Self.tables[index].1 {
            switch step {
            case .sent(let change, let id, let replaced): ledger.sent(change, id: id, replacing: replaced)
            case .answered(let change, let id): #expect(ledger.answer(change) == id, "\(Self.tables[index].0): \(change)")
            }
        }
    }

    @Test func theNewestThousandIdsWait() {
        var ledger = IdLedger()
        for n in 0..<1_500 { ledger.sent(.seek(cycle: n, phase: 0), id: .integer(Int64(n)), replacing: nil) }
        #expect(ledger.awaiting.count == IdLedger.limit)
        #expect(ledger.answer(.seek(cycle: 499, phase: 0)) == nil)
        #expect(ledger.answer(.seek(cycle: 500, phase: 0)) == 500)
    }

    /// Several boards: the session's intensity answered by the lead's event; one board's by its own, naming it.
    @Test func aBoardsOwnChangeIsAnsweredByThatBoard() {
        var ledger = IdLedger()
        ledger.sent(.strength(0.3), id: "old", replacing: nil)
        ledger.sentToEveryBoard(leadChange: .strength(0.5), id: "all")
        #expect(ledger.answer(.strength(0.3)) == nil)  // superseded
        #expect(ledger.answer(.strength(0.5)) == "all")
        ledger.sentToEveryBoard(leadChange: .strength(0.5), id: "again")
        ledger.sentToOneBoard("left", .strength(0.25), isLead: true, id: "left")
        #expect(ledger.answer(.strength(0.5)) == nil)  // the lead's own change supersedes the one for all
        #expect(ledger.answer(.strength(0.25), board: "right") == (false, nil))
        #expect(ledger.answer(.strength(0.25), board: "left") == (true, "left"))
        #expect(ledger.answer(.strength(0.25), board: "left") == (false, nil))
        ledger.sentToOneBoard("right", .strength(0.1), isLead: false, id: nil)
        #expect(ledger.answer(.strength(0.1), board: "right") == (true, nil))  // its own event, without an id
    }

    /// (ended, away, the lead) of boards a, b, c.
    static let leads: [(ended: Set<String>, away: Set<String>, lead: String?)] = [
        ([], [], "a"), (["a"], [], "b"), ([], ["a"], "b"), (["a"], ["b"], "c"), (["a", "b"], ["c"], "c"),
        (["a", "b", "c"], [], "a"), ([], ["a", "b", "c"], "a"),
    ]

    @Test(arguments: 0..<leads.count)
    func theLeadIsTheFirstPlaying(index: Int) {
        let row = Self.leads[index]
        var roster = BoardRoster(names: ["a", "b", "c"])
        row.ended.forEach { roster.end($0) }
        row.away.forEach { roster.setAway($0, true) }
        #expect(roster.lead == row.lead)
        #expect(BoardRoster().lead == nil)
    }
}
