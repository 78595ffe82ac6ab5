// docs/control.schema.json is the schema the message types make (ControlSchema): a field added to a type
// and not regenerated fails here. MOTORBREATH_WRITE_SCHEMA=1 writes the file from the types instead.
// SPDX-License-Identifier: Apache-2.0

import Foundation
@testable import MotorControl
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ControlSchemaTests {
    static let regenerate = "MOTORBREATH_WRITE_SCHEMA=1 swift test --filter ControlSchemaTests"

    @Test func theCheckedInSchemaIsTheTypes() throws {
        let file = repositoryRoot.appendingPathComponent("docs/control.schema.json")
        if ProcessInfo.processInfo.environment["MOTORBREATH_WRITE_SCHEMA"] == "1" {
            try Data(ControlSchema.text.utf8).write(to: file)
            return
        }
        let checkedIn = (try? String(contentsOf: file, encoding: .utf8)) ?? "(missing)"
        #expect(checkedIn == ControlSchema.text, "docs/control.schema.json differs from the message types; regenerate it: \(Self.regenerate)")
    }

    /// Every message in the schema, every field of each type in it, and the ranges the parser checks.
    @Test func theSchemaNamesEveryMessage() throws {
        let defs = try #require(ControlSchema.document.object?["$defs"]?.object)
        #expect(defs.count == ControlMessages.commands.count + ControlMessages.events.count + 2)
        let intensity = try #require(defs["command.intensity"]?.object)
        #expect(intensity["required"] == ["command", "value"])
        #expect(intensity["properties"]?.object?["value"] == ["type": "number", "minimum": 0.0, "maximum": 1.0])
        let seek = try #require(defs["command.seek"]?.object?["properties"]?.object)
        #expect(seek["cycle"] == ["type": "integer", "minimum": 1.0, "maximum": 100_000.0])
        #expect(seek["phase"] == ["type": "string", "enum": ["inhale", "hold", "exhale", "hold-out"]])
        let state = try #require(defs["event.state"]?.object?["properties"]?.object)
        #expect(state["boards"]?.object?["items"]?.object?["required"] == ["name", "intensity", "strength"])
    }
}
