// play's spatial options, parsed in process: --spread together|rise[:SHARE] and --actuator
// NAME:at=P,strength=S,offset=MS, each board's place from them (evenly spaced by default), what they refuse.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Testing
@testable import motorbreath
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SpreadOptionTests {
    @Test func aBeltOfFourIsEvenlySpacedUnlessAnActuatorSaysWhere() throws {
        let play = try #require(parsed("--board a=sim --board b=sim --board c=sim --board d=sim --spread rise:0.3 --actuator d:strength=0.5,offset=40ms --actuator b:at=0.2", as: Play.self))
        let places = try play.board.placements()
        #expect(places.map { $0.spread?.position } == [0, 0.2, 2.0 / 3, 1])
        #expect(places.map { $0.spread?.gain } == [1, 1, 1, 0.5] && places.map(\.offsetMs) == [0, 0, 0, 40])
        #expect(places.allSatisfy { $0.spread?.travel == .rise && $0.spread?.fraction == 0.3 })
        // Without --spread every board swells together (its own strength and offset still apply).
        let together = try #require(parsed("--port /dev/ttyUSB0 --port /dev/ttyUSB1 --actuator ttyUSB1:strength=0.7", as: Play.self))
        #expect(try together.board.placements().map(\.spread) == [BreathSpread(position: 0), BreathSpread(position: 1, gain: 0.7)])
        #expect(try #require(parsed("--board a=sim --board b=sim --spread rise", as: Play.self)).board.spread == SpreadValue(travel: .rise, fraction: 0.5))
    }

    @Test func whatTheSpatialOptionsRefuse() {
        let spreadWhy = "expected together, rise or rise:SHARE (SHARE 0.05...0.95 of each swell's phase the travel takes, 0.5 by default)"
        let actuatorWhy = "expected NAME:at=P,strength=S,offset=MS (a board's name; any of: at 0...1 along the line, strength 0...1, offset 0...2000 ms), e.g. belly:at=0.2,strength=0.8"
        func spread(_ v: String) -> String { invalid(v, "--spread", spreadWhy).replacingOccurrences(of: "<spread>", with: "<together|rise[:share]>") }
        func actuator(_ v: String, _ why: String = actuatorWhy) -> String {
            invalid(v, "--actuator", why).replacingOccurrences(of: "<actuator>", with: "<name:at=p,strength=s,offset=ms>")
        }
        let cases: [(String, String)] = [
            ("--simulate --spread rise", "motorbreath: --spread and --actuator place several boards: give each with --board NAME=PLACE (or --port more than once)"),
            ("--port /dev/ttyUSB0 --actuator ttyUSB0:at=1", "motorbreath: --spread and --actuator place several boards: give each with --board NAME=PLACE (or --port more than once)"),
            ("--board a=sim --board b=sim --actuator c:at=1", "motorbreath: --actuator c: no board is named c (the boards: a, b)"),
            ("--board a=sim --board b=sim --spread rise --ahap x.ahap", "motorbreath: --spread rise moves a breath's swells; an AHAP file plays as it is on every board (--actuator's strength and offset apply)"),
            ("--board a=sim --board b=sim --spread wave", spread("wave")),
            ("--board a=sim --board b=sim --spread rise:1", spread("rise:1")),
            ("--board a=sim --board b=sim --spread together:0.5", spread("together:0.5")),
            ("--board a=sim --board b=sim --spread rise:", spread("rise:")),
            ("--board a=sim --board b=sim --actuator b:at=0.5 --actuator b:strength=0.3",
             "motorbreath: --actuator b: given twice (give a board's at, strength and offset in one --actuator)"),
            ("--board a=sim --board b=sim --actuator a", actuator("a")),
            ("--board a=sim --board b=sim --actuator a:at=2", actuator("a:at=2", "at: expected 0...1 along the line, got 2")),
            ("--board a=sim --board b=sim --actuator a:strength=-0.1", actuator("a:strength=-0.1", "strength: expected 0...1, got -0.1")),
            ("--board a=sim --board b=sim --actuator a:offset=3s", actuator("a:offset=3s", "offset: expected 0...2000 ms, got 3s")),
            ("--board a=sim --board b=sim --actuator a:volume=1", actuator("a:volume=1")),
        ]
        for (line, expected) in cases {
            let r = parseLine(line)
            #expect(r.status == usage && r.line == expected, "\(line): \(r.line ?? "parsed")")
        }
    }
}
