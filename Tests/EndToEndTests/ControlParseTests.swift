// The control protocol's parser on its own: a seek outside the session's cycles is an error naming the
// range (the session refuses it too, for seeks that a finish put outside); numbers must be finite.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
@testable import MotorControl
import MotorSession
import Testing

@Suite(.timeLimit(.minutes(10))) struct ControlParseTests {
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
