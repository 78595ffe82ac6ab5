// play's forms for several boards, parsed in process: --port more than once, the named layout --board
// NAME=PATH / NAME=sim[:LINK], what they refuse; one --port (and every other command) as before.
// SPDX-License-Identifier: Apache-2.0

import SimBoard
import Testing
@testable import motorbreath
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SeveralBoardsTests {
    @Test func portGivenTwiceIsTwoBoardsNamedByTheirPaths() throws {
        let play = try #require(parsed("--port /dev/ttyUSB0 --port /dev/ttyUSB1", as: Play.self))
        #expect(play.board.several)
        #expect(play.board.layout == [NamedBoard(name: "ttyUSB0", place: .port("/dev/ttyUSB0")),
                                      NamedBoard(name: "ttyUSB1", place: .port("/dev/ttyUSB1"))])
    }

    @Test func oneBoardIsAsBefore() throws {
        let play = try #require(parsed("--port /dev/ttyUSB0", as: Play.self))
        #expect(!play.board.several && play.board.connection.port == "/dev/ttyUSB0")
        let simulated = try #require(parsed("--simulate --sim-link ftdi", as: Play.self))
        #expect(!simulated.board.several && simulated.board.simulate)
        // A command that opens one board takes the last --port, as a repeated option always did.
        let info = try #require(parsed("info --port /dev/ttyUSB0 --port /dev/ttyUSB1", as: InfoCommand.self))
        #expect(info.connection.port == "/dev/ttyUSB1")
    }

    @Test func aNamedLayoutMixesPortsAndSimulatedBoards() throws {
        let play = try #require(parsed("--board left=/dev/ttyUSB0 --board right=sim:ftdi,drift=-50000ppm --board belt-3=sim", as: Play.self))
        #expect(play.board.several)
        let layout = play.board.layout
        #expect(layout.map(\.name) == ["left", "right", "belt-3"])
        #expect(layout[0].place == .port("/dev/ttyUSB0"))
        guard case .simulated(let link?) = layout[1].place else { Issue.record("right is not simulated with a link"); return }
        #expect(link.impairments.model?.kind == .ftdi && link.impairments.driftPPM == -50_000)
        #expect(layout[2].place == .simulated(nil))
        // One --board is a layout of one (named in the report).
        #expect(try #require(parsed("--board wrist=sim", as: Play.self)).board.several)
    }

    @Test func whatSeveralBoardsRefuse() {
        let why = "a board is NAME=PATH, NAME=sim or NAME=sim:LINK (LINK as --sim-link gives it), NAME a word of a-z, 0-9 and dashes, e.g. left=/dev/ttyUSB0 or right=sim:ftdi,drift=-50000ppm"
        let cases: [(String, String)] = [
            ("--board left=sim --board left=sim:cdc", "motorbreath: two boards are named left"),
            ("--board left=sim --port /dev/ttyUSB0", "motorbreath: use --board for every board, not with --simulate or --port"),
            ("--board left=sim --simulate", "motorbreath: use --board for every board, not with --simulate or --port"),
            ("--board left=sim --board right=sim --sim-link ftdi", "motorbreath: give each simulated board its own link: --board NAME=sim:LINK"),
            ("--board left=/dev/ttyUSB0 --board right=sim --virtual-time", "motorbreath: --virtual-time works when every board is simulated"),
            ("--port /dev/ttyUSB0 --port /dev/ttyUSB0", "motorbreath: a port is given twice: each board once"),
            ("--port /dev/serial/a/ttyUSB0 --port /dev/serial/b/ttyUSB0", "motorbreath: two ports are both named ttyUSB0 (their paths' last part): name them with --board NAME=PATH"),
            ("--board a=sim --board b=sim --virtual-time --control -", "motorbreath: --virtual-time runs each board at its own speed: steer several boards in real time (drop --virtual-time)"),
            ("--board Left=sim", invalid("Left=sim", "--board", why).replacingOccurrences(of: "<board>", with: "<name=place>")),
            ("--board left=", invalid("left=", "--board", why).replacingOccurrences(of: "<board>", with: "<name=place>")),
            ("--board left=sim:ftdx", invalid("left=sim:ftdx", "--board", "left's link: expected key=value or a link model (ftdi, ftdi-1ms, ch340, cp2102, cdc)")
                .replacingOccurrences(of: "<board>", with: "<name=place>")),
        ]
        for (line, expected) in cases {
            let r = parseLine(line)
            #expect(r.status == usage && r.line == expected, "\(line): \(r.line ?? "parsed")")
        }
        // A controlling program steers several boards too.
        #expect(parseLine("--port /dev/ttyUSB0 --port /dev/ttyUSB1 --control -").status == 0)
        // Every simulated board in virtual time is fine.
        #expect(parseLine("--board left=sim --board right=sim:cdc --virtual-time").status == 0)
    }

    @Test func theLiveLineNamesEveryBoard() {
        var s = SeveralView.Board(elapsed: 12.34, played: 3075, total: 4825, fill: 250, state: "playing")
        let other = SeveralView.Board(elapsed: 12.3, played: 3070, total: 4825, fill: nil, state: "reconnecting, attempt 2")
        #expect(SeveralView.text(names: ["left", "right", "belt"], [s, other, nil])
                == "12.3 s · left 3075/4825 buf 250 · right reconnecting, attempt 2 · belt -")
        s.elapsed = -0.25
        #expect(SeveralView.text(names: ["left"], [s]) == "starting in 0.2 s · left 3075/4825 buf 250")
        // With keys or a controlling program, their values close the line (a key's effect is seen).
        #expect(SeveralView.text(names: ["left"], [s], controls: "intensity 80%  pace 5.5/min")
                == "starting in 0.2 s · left 3075/4825 buf 250 · intensity 80%  pace 5.5/min")
    }
}
