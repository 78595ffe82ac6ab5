// The control protocol's parser on its own: a seek outside the session's cycles is an error naming the
// range (the session refuses it too, for seeks that a finish put outside); numbers must be finite.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
@testable import MotorControl
@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ControlParseTests {
    let pattern = BreathPattern.presets[0]

    func message(_ line: String, cycles: Int?) -> String? {
        do {
            _ = try ControlCommand.parse(line, pattern: pattern, cycles: cycles)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aSeekOutsideTheSessionNamesTheRange() {
        #expect(message(#"{"command":"seek","cycle":10}"#, cycles: 3) == #"seek: "cycle" must be in 1...3 (this session's cycles), got 10"#)
        #expect(message(#"{"command":"seek","cycle":4}"#, cycles: 3) != nil)
        #expect(message(#"{"command":"seek","cycle":3,"phase":"exhale"}"#, cycles: 3) == nil)
        #expect(message(#"{"command":"seek","cycle":10}"#, cycles: nil) == nil)  // a looping session has no last cycle
        #expect(message(#"{"command":"seek","cycle":0}"#, cycles: 3) == #"seek: "cycle" must be a finite number in 1...100000"#)
    }

    @Test func aPatternTakesWhatPatternTakes() throws {
        #expect(try ControlCommand.parse(#"{"command":"pattern","pattern":"BOX"}"#, pattern: pattern)
                == .change(.pattern(BreathPattern.presets[1], now: false)))
        #expect(try ControlCommand.parse(#"{"command":"pattern","pattern":"5-0-5","at":"now"}"#, pattern: pattern)
                == .change(.pattern(try BreathPattern.parse("5-0-5"), now: true)))
        #expect(message(#"{"command":"pattern"}"#, cycles: nil)?.hasPrefix(#"pattern: "pattern" must be a preset (4-7-8, box, coherent, sigh)"#) == true)
        #expect(message(#"{"command":"pattern","pattern":"4-7-8","at":1}"#, cycles: nil) == #"pattern: "at" must be next or now"#)
        #expect(message(#"{"command":"pattern","pattern":"4-7-8-0.05"}"#, cycles: nil)
                == #"pattern: the value '4-7-8-0.05' is invalid for "pattern": '0.05' s is too short for a hold-out: 0 for none, or 0.1...120 s"#)
    }

    /// The palette's steady vibration has no pattern: refused, with the id; `patterns` still answers.
    @Test func thePaletteRefusesAPattern() throws {
        let hub = ControlHub(inbox: ControlInbox(), pattern: pattern, strength: 1, sharpness: 0.3)
        hub.arrowsChangeSharpness = true
        let line = try #require(hub.handle(line: #"{"command":"pattern","pattern":"box","id":3}"#))
        let refused = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(refused["event"] as? String == "refused" && refused["command"] as? String == "pattern" && refused["id"] as? Int == 3)
        #expect(hub.pattern == pattern)
        #expect(hub.handle(line: #"{"command":"patterns"}"#)?.contains(#""event":"patterns""#) == true)
    }

    /// A pattern change the session refuses (no next cycle, say) is taken back: `state` names the pattern
    /// that plays, not the one asked for; one it applies stays.
    @Test func aRefusedPatternIsTakenBack() throws {
        let hub = ControlHub(inbox: ControlInbox(), pattern: pattern, strength: 1, sharpness: 0.3)
        let box = BreathPattern.presets[1]
        #expect(hub.handle(line: #"{"command":"pattern","pattern":"box"}"#) == nil)
        #expect(hub.pattern == box)  // as last asked for, at once
        _ = hub.line(for: .refused(change: .pattern(box, now: false), reason: "the breath ends with this cycle"), nowNs: 0)
        #expect(hub.pattern == pattern && hub.bpm == 60 / pattern.cycleSeconds)
        #expect(hub.handle(line: #"{"command":"pattern","pattern":"box"}"#) == nil)
        _ = hub.line(for: .applied(change: .pattern(box, now: false), frame: 10, boardTick: 1000, latencyMs: 1, receivedNs: 0), nowNs: 0)
        #expect(hub.pattern == box)
    }

    /// docs/control.md is checked against the code: its command table names exactly the commands the
    /// parser takes, its event table exactly the events sent, and it states the line limit.
    @Test func theDocumentListsEveryCommandAndEvent() throws {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("docs/control.md").path) && dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        let doc = try String(contentsOf: dir.appendingPathComponent("docs/control.md"), encoding: .utf8)
        func firstColumn(under heading: String) -> [String] {
            guard let start = doc.range(of: heading) else { return [] }
            var names: [String] = []
            var inTable = false
            for line in doc[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("|") {
                    inTable = true
                    let cell = line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? ""
                    if cell.hasPrefix("`") && cell.hasSuffix("`") { names.append(String(cell.dropFirst().dropLast())) }
                } else if inTable {
                    break
                }
            }
            return names
        }
        #expect(Set(firstColumn(under: "## Commands")) == Set(ControlCommand.names))
        #expect(Set(firstColumn(under: "## Events")) == Set(ControlEvents.names))
        #expect(doc.contains("\(LineReader.limit) bytes"))
        #expect(doc.contains("`protocol`") && ControlEvents.protocolVersion == 1)
    }
}

/// Issue 39's smaller control items, each as docs/control.md states it: a number too large for a Double
/// gets its field's range error (not "not a command"); a seek names a whole cycle; a line of whitespace is
/// ignored as an empty one is; a pause and a resume 20 ms apart each keep their id on their `applied`.
@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ControlContractTests {
    let pattern = BreathPattern.presets[0]

    static func fields(_ line: String?) -> [String: Any]? {
        line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// (line, the error message; nil: the command is taken).
    static let numbers: [(String, String?)] = [
        (#"{"command":"intensity","value":1e999}"#, #"intensity: "value" must be a finite number in 0...1"#),
        (#"{"command":"intensity","value":-1e999}"#, #"intensity: "value" must be a finite number in 0...1"#),
        (#"{"command":"intensity","value":1E+400,"id":7}"#, #"intensity: "value" must be a finite number in 0...1"#),
        (#"{"command":"sharpness","value":-12e999}"#, #"sharpness: "value" must be a finite number in -1...1"#),
        (#"{"command":"pace","bpm":1e999}"#, #"pace: "bpm" must be a finite number in 1...30"#),
        (#"{"command":"seek","cycle":1e999}"#, #"seek: "cycle" must be a finite number in 1...100000"#),
        (#"{"command":"intensity","value":1e308}"#, #"intensity: "value" must be a finite number in 0...1"#),
        (#"{"command":"intensity","value":NaN}"#, #"intensity: "value" must be a finite number in 0...1"#),
        (#"{"command":"seek","cycle":1.5}"#, #"seek: "cycle" must be a whole number (a cycle, 1 for the first), got 1.5"#),
        (#"{"command":"seek","cycle":2.999}"#, #"seek: "cycle" must be a whole number (a cycle, 1 for the first), got 2.999"#),
        (#"{"command":"seek","cycle":1.5,"phase":"exhale"}"#, #"seek: "cycle" must be a whole number (a cycle, 1 for the first), got 1.5"#),
        (#"{"command":"seek","cycle":2.0}"#, nil),
        (#"{"command":"seek","cycle":3e0}"#, nil),
        (#"{"command":"intensity","value":5e-1}"#, nil),
        (#"{"command":"intensity","value":0.25, "note":"1e999"}"#, nil),  // in a string: left as it is
        (#"{"command":"pattern","pattern":"1e999"}"#, #"pattern: the value '1e999' is invalid for "pattern": "#),
        (#"{"command":1e999}"#, #"unknown command "1e999" (intensity, sharpness, "#),  // as {"command":Infinity} is
    ]

    @Test(arguments: 0..<ControlContractTests.numbers.count)
    func numbersAndCyclesGetTheirOwnError(index: Int) throws {
        let (line, expected) = Self.numbers[index]
        let hub = ControlHub(inbox: ControlInbox(), pattern: pattern, strength: 1, sharpness: 0.3)
        let answer = Self.fields(hub.handle(line: line))
        if let expected {
            let message = try #require(answer?["message"] as? String, "\(line): \(String(describing: answer))")
            #expect(message.hasPrefix(expected), "\(line): \(message)")
            #expect(answer?["event"] as? String == "error")
            if line.contains(#""id":7"#) { #expect(answer?["id"] as? Int == 7) }
        } else {
            #expect(answer == nil, "\(line): \(String(describing: answer))")
        }
    }

    /// An app's command with a value that is not a finite number (the parser never makes one) is answered
    /// with the parser's error, and changes nothing: the live line's percent would trap on it.
    @Test(arguments: [ControlCommand.intensity(.nan), .intensity(.infinity), .sharpness(-.infinity), .change(.pace(breathsPerMinute: .nan)),
                      .boardIntensity(board: "left", value: .nan), .change(.strength(.nan))])
    func anAppsNonFiniteValueIsAnError(command: ControlCommand) {
        let inbox = ControlInbox()
        let hub = ControlHub(inbox: inbox, pattern: pattern, strength: 1, sharpness: 0.3)
        let answer = Self.fields(hub.handle(command, id: 3))
        #expect(answer?["event"] as? String == "error" && answer?["id"] as? Int == 3, "\(command): \(String(describing: answer))")
        #expect((answer?["message"] as? String)?.contains("must be a finite number") == true)
        #expect(inbox.take().isEmpty && hub.intensity == 1 && hub.summary.hasPrefix("intensity 100%"))
    }

    /// Lines of only whitespace are ignored on every way in (the hub answers nothing); one with a command
    /// and whitespace around it is that command.
    @Test(arguments: [" ", "\t", "   \t  ", "\r", " \r", "\t\t\t\t"])
    func aWhitespaceLineIsIgnored(line: String) {
        let hub = ControlHub(inbox: ControlInbox(), pattern: pattern, strength: 1, sharpness: 0.3)
        #expect(hub.handle(line: line) == nil, "\(Array(line.unicodeScalars))")
        #expect(Self.fields(hub.handle(line: line + #"{"command":"state"}"# + line))?["event"] as? String == "state")
    }

    /// A pause, then a resume within 20 ms: when the session took the pause before the resume came, it is
    /// made and answered, and its `applied` carries the pause's id, the resume's the resume's. When the
    /// resume replaced it in the inbox, the pause is never made (no event; the docs' "latest command wins").
    /// Also for every other pair of one kind (pace, seek, strength), and a burst of alternating pairs.
    @Test(arguments: [true, false])
    func aPauseAndAQuickResumeKeepTheirIds(taken: Bool) throws {
        let inbox = ControlInbox()
        let hub = ControlHub(inbox: inbox, pattern: pattern, strength: 1, sharpness: 0.3)
        func applied(_ change: BreathChange) -> [String: Any]? {
            Self.fields(hub.line(for: .applied(change: change, frame: 100, boardTick: 1_000, latencyMs: 5, receivedNs: 0), nowNs: 0))
        }
        #expect(hub.handle(line: #"{"command":"pause","id":"p"}"#) == nil)
        if taken { #expect(inbox.take().map(\.change) == [.pause]) }
        #expect(hub.handle(line: #"{"command":"resume","id":"r"}"#) == nil)
        #expect(inbox.take().map(\.change) == [.resume])
        if taken { #expect(applied(.pause)?["id"] as? String == "p") }
        #expect(applied(.resume)?["id"] as? String == "r")
        if !taken { #expect(applied(.pause)?["id"] == nil) }

        // Pace and seek the same way, and 500 pairs in a row, each taken between them.
        for (first, second) in [(#"{"command":"pace","bpm":6,"id":1}"#, #"{"command":"pace","bpm":7,"id":2}"#),
                                (#"{"command":"seek","cycle":2,"id":1}"#, #"{"command":"seek","cycle":3,"id":2}"#)] {
            _ = hub.handle(line: first)
            let made = inbox.take().map(\.change)
            _ = hub.handle(line: second)
            let then = inbox.take().map(\.change)
            #expect(applied(made[0])?["id"] as? Int == 1 && applied(then[0])?["id"] as? Int == 2, "\(first)")
        }
        var changes: [(BreathChange, Int)] = []
        for n in 0..<1_000 {
            _ = hub.handle(line: n % 2 == 0 ? #"{"command":"pause","id":\#(n)}"# : #"{"command":"resume","id":\#(n)}"#)
            changes += inbox.take().map { ($0.change, n) }
        }
        for (change, n) in changes { #expect(applied(change)?["id"] as? Int == n) }
    }
}
