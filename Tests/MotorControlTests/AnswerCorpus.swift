// Command lines with what the hub answered before the messages were typed (Fixtures/answers.json), so that
// typing them changed no answer on the wire except the ones listed here, each on purpose.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
@testable import MotorControl
@testable import MotorSession

/// One line and what a fresh hub (4-7-8, 3 cycles, strength 0.8) answered and sent to the session.
struct Answer: Codable, Equatable {
    var line: String
    var answer: String
    var changes: String
    /// The `applied` line of each change sent (the id the command carried, the values it names).
    var applied: [String]
}

enum AnswerCorpus {
    /// Lines a client could send: every command with good, edge and bad values, ids of every kind,
    /// non-JSON numbers, broken JSON, whitespace.
    static let lines: [String] = {
        var lines = [
            #"{"command":"intensity","value":0.5}"#, #"{"command":"intensity","value":0}"#, #"{"command":"intensity","value":1}"#,
            #"{"command":"intensity","value":-0.1}"#, #"{"command":"intensity","value":2}"#, #"{"command":"intensity","value":"0.5"}"#,
            #"{"command":"intensity","value":null}"#, #"{"command":"intensity"}"#, #"{"command":"intensity","value":[0.5]}"#,
            #"{"command":"intensity","value":1e-400}"#, #"{"command":"intensity","value":5e-1}"#, #"{"command":"intensity","value":1e308}"#,
            #"{"command":"intensity","value":1e999}"#, #"{"command":"intensity","value":-1e999}"#, #"{"command":"intensity","value":1E+400,"id":7}"#,
            #"{"command":"intensity","value":NaN}"#, #"{"command":"intensity","value":Infinity}"#, #"{"command":"intensity","value":-Infinity,"id":"n"}"#,
            #"{"command":"intensity","value":0.25, "note":"1e999"}"#, #"{"command":"intensity","value":0.25,"note":NaN}"#,
            #"{"command":"intensity","value":0.5,"board":"left"}"#, #"{"command":"intensity","value":0.5,"board":5}"#,
            #"{"command":"intensity","value":0.5,"board":""}"#, #"{"command":"intensity","value":0.5,"board":"left","id":"b"}"#,
            #"{"command":"sharpness","value":-1}"#, #"{"command":"sharpness","value":1}"#, #"{"command":"sharpness","value":1.5}"#,
            #"{"command":"sharpness","value":-12e999}"#, #"{"command":"sharpness"}"#,
            #"{"command":"pace","bpm":1}"#, #"{"command":"pace","bpm":30}"#, #"{"command":"pace","bpm":0.5}"#, #"{"command":"pace","bpm":31}"#,
            #"{"command":"pace","bpm":"6"}"#, #"{"command":"pace","bpm":1E1}"#, #"{"command":"pace","bpm":1e999}"#, #"{"command":"pace","value":6}"#,
            #"{"command":"pause"}"#, #"{"command":"resume"}"#, #"{"command":"finish"}"#, #"{"command":"stop"}"#, #"{"command":"pause","value":3}"#,
            #"{"command":"state"}"#, #"{"command":"state","id":1}"#, #"{"command":"patterns","id":"p"}"#, #"{"command":"clock","id":2}"#,
            #"{"command":"seek","cycle":1}"#, #"{"command":"seek","cycle":3,"phase":"exhale"}"#, #"{"command":"seek","cycle":4}"#,
            #"{"command":"seek","cycle":0}"#, #"{"command":"seek","cycle":1.5}"#, #"{"command":"seek","cycle":2.999}"#, #"{"command":"seek","cycle":"2"}"#,
            #"{"command":"seek","cycle":2.0}"#, #"{"command":"seek","cycle":3e0}"#, #"{"command":"seek","cycle":1e999}"#, #"{"command":"seek"}"#,
            #"{"command":"seek","cycle":2,"phase":"hold-out"}"#, #"{"command":"seek","cycle":2,"phase":"EXHALE"}"#,
            #"{"command":"seek","cycle":1.5,"phase":"exhale"}"#, #"{"command":"seek","cycle":100001}"#,
            #"{"command":"pattern","pattern":"box"}"#, #"{"command":"pattern","pattern":"BOX"}"#, #"{"command":"pattern","pattern":"5-0-5","at":"now"}"#,
            #"{"command":"pattern","pattern":"5-0-5","at":"next","id":"n"}"#, #"{"command":"pattern","pattern":"4-7-8","at":"later"}"#,
            #"{"command":"pattern","pattern":"4-7-8","at":1}"#, #"{"command":"pattern","pattern":5}"#, #"{"command":"pattern"}"#,
            #"{"command":"pattern","pattern":"0.2-0-4"}"#, #"{"command":"pattern","pattern":"4-7-8-0.05"}"#, #"{"command":"pattern","pattern":"1e999"}"#,
            #"{"command":"jump"}"#, #"{"command":"jump","id":4}"#, #"{"command":5}"#, #"{"command":null}"#, #"{"command":1e999}"#,
            #"{"command":Infinity}"#, #"{"command":"ïntensity"}"#, #"{"command":"Pause"}"#, "{}", "[]", #""intensity""#, "42", "not json",
            #"{"command":"intensity""#, #"{"command":"intensity","value":0.5}{"x":1}"#, #"{"id":3}"#,
            String(repeating: "x", count: 200),
            #"  {"command":"state","id":"sp"}  "#, "\t{\"command\":\"pause\"}\r",
            #"{"command":"intensity","value":0.5,"id":"s"}"#, #"{"command":"intensity","value":0.5,"id":1}"#,
            #"{"command":"intensity","value":0.5,"id":1.5}"#, #"{"command":"intensity","value":0.5,"id":-3}"#,
            #"{"command":"intensity","value":0.5,"id":1e3}"#, #"{"command":"intensity","value":0.5,"id":"x/y é"}"#,
            #"{"command":"intensity","value":0.5,"id":null}"#, #"{"command":"intensity","value":0.5,"id":[1]}"#,
            #"{"command":"intensity","value":0.5,"id":{"a":1}}"#, #"{"command":"intensity","value":0.5,"id":12345678901234567890}"#,
            #"{"command":"jump","id":"x"}"#, #"{"command":5,"id":"y"}"#, #"{"command":"pause","command":"resume"}"#, #"{"command":"intensity","value":NaN,"id":"z"}"#,
        ]
        for id in ["1.5", "-3", "1e3", #""x/y é""#, "null", "[1]", #"{"a":1}"#, "12345678901234567890", "true", "1e999", "NaN", "0", #""""#] {
            lines.append(#"{"command":"state","id":\#(id)}"#)
        }
        lines += [" ", "\t", "\r", " \r", ""]
        return lines
    }()

    /// What a fresh hub answers `line` with, and the changes it sends (the clock's time left out).
    static func answer(_ line: String) -> Answer {
        let inbox = ControlInbox()
        let hub = ControlHub(inbox: inbox, pattern: BreathPattern.presets[0], strength: 0.8, sharpness: 0.3)
        hub.cycles = 3
        var answer = hub.handle(line: line) ?? "-"
        if let range = answer.range(of: #""unix_ms":[0-9.e+]+"#, options: .regularExpression) {
            answer.replaceSubrange(range, with: #""unix_ms":T"#)
        }
        let changes = inbox.take().map(\.change)
        let applied = changes.map {
            hub.line(for: .applied(change: $0, frame: 100, boardTick: 1_000, latencyMs: 12.34, receivedNs: 0), nowNs: 0)
        }
        return Answer(line: line, answer: answer, changes: "\(changes)", applied: applied)
    }
}
