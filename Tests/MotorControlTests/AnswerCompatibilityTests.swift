// Every line of the corpus answered as before the messages were typed (Fixtures/answers.json, recorded
// from the dictionary-built parser), except the few changed on purpose, listed with their reasons.
// MOTORBREATH_WRITE_ANSWERS=1 writes the file from this build instead (only to record a change on purpose).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct AnswerCompatibilityTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/answers.json")

    @Test func everyLineIsAnsweredAsBefore() throws {
        let now = AnswerCorpus.lines.map(AnswerCorpus.answer)
        if ProcessInfo.processInfo.environment["MOTORBREATH_WRITE_ANSWERS"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try FileManager.default.createDirectory(at: Self.file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(now).write(to: Self.file)
            return
        }
        let before = try JSONDecoder().decode([Answer].self, from: Data(contentsOf: Self.file))
        #expect(before.map(\.line) == AnswerCorpus.lines)
        for (old, new) in zip(before, now) {
            if Self.changedOnPurpose[old.line] != nil {
                #expect(old != new, "\(old.line) is answered as before again: take it off the list")
            } else {
                #expect(old == new)
            }
        }
    }

    /// Lines answered differently since the typing, and why.
    static let changedOnPurpose: [String: String] = [
        // JSON leaves duplicate names undefined; Foundation's JSONDecoder takes the first, JSONSerialization
        // took the last. A client never needs to send one.
        #"{"command":"pause","command":"resume"}"#: "the first of two command fields",
        // docs/control.md: an id is "a string or a number"; JSONSerialization read true as a number.
        #"{"command":"state","id":true}"#: "a boolean id is not echoed",
    ]
}
