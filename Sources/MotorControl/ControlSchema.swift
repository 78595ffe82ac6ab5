// The control protocol as a JSON Schema (draft 2020-12), made from the message types' own shapes and
// notes: docs/control.schema.json is this text, checked by MotorControlTests (which also write it).
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// One message type as the docs and the schema describe it: its name field, and its fields with `id`
/// added for a command (every command may carry one).
public struct ControlMessageShape: Sendable {
    /// `command` or `event`.
    public var kind: String
    public var name: String
    public var fields: [WireField]
    public var notes: [String: FieldNote]

    /// Every command, then every event, in `ControlMessages`' order.
    public static var all: [ControlMessageShape] {
        let id = WireField(name: "id", shape: .stringOrNumber, required: false)
        return ControlMessages.commands.map { ControlMessageShape(kind: "command", name: $0.command, fields: $0.shape + [id], notes: $0.notes) }
            + ControlMessages.events.map { ControlMessageShape(kind: "event", name: $0.event, fields: $0.shape, notes: $0.notes) }
    }

    /// Every field and every field of the objects inside it, by path (`boards[].name`), in order.
    public var paths: [(path: String, shape: WireShape, required: Bool)] { Self.flatten(fields, prefix: "") }

    static func flatten(_ fields: [WireField], prefix: String) -> [(path: String, shape: WireShape, required: Bool)] {
        fields.flatMap { f -> [(path: String, shape: WireShape, required: Bool)] in
            let path = prefix + f.name
            switch f.shape {
            case .object(let inner): return [(path, f.shape, f.required)] + flatten(inner, prefix: path + ".")
            case .array(.object(let inner)): return [(path, f.shape, f.required)] + flatten(inner, prefix: path + "[].")
            default: return [(path, f.shape, f.required)]
            }
        }
    }

    /// The JSON type the docs name for the field at `path`.
    public func typeName(_ shape: WireShape, path: String) -> String {
        if case .wholeRange = notes[path] { return "integer" }
        switch shape {
        case .string, .oneOf: return "string"
        case .number: return "number"
        case .integer: return "integer"
        case .boolean: return "boolean"
        case .stringOrNumber: return "string or number"
        case .anyObject, .object: return "object"
        case .array(let element): return "array of \(typeName(element, path: path + "[]"))s"
        }
    }
}

extension ControlCommandMessage {
    static var shape: [WireField] { if case .object(let f) = WireShape.of(Self.self) { f } else { [] } }
}

extension ControlEventMessage {
    static var shape: [WireField] { if case .object(let f) = WireShape.of(Self.self) { f } else { [] } }
}

/// docs/control.schema.json: every command and event as a JSON Schema, made from the types.
public enum ControlSchema {
    /// The schema document.
    public static var document: ControlJSON {
        let messages = ControlMessageShape.all
        var defs: [String: ControlJSON] = [:]
        for m in messages { defs["\(m.kind).\(m.name)"] = object(m) }
        for kind in ["command", "event"] {
            defs[kind] = ["oneOf": .array(messages.filter { $0.kind == kind }.map { ["$ref": .string("#/$defs/\(kind).\($0.name)")] })]
        }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": .string("motorbreath control protocol \(ControlEvents.protocolVersion)"),
            "description": "One JSON object per line each way: a command to motorbreath or an event from it (docs/control.md). Generated from the message types in Sources/MotorControl; do not edit by hand.",
            // An event also names a command (`applied`, `refused`): a line with `event` is an event.
            "if": ["required": ["event"]],
            "then": ["$ref": "#/$defs/event"],
            "else": ["$ref": "#/$defs/command"],
            "$defs": .object(defs),
        ]
    }

    /// The document as docs/control.schema.json holds it: indented, keys sorted, a newline at the end.
    public static var text: String {
        let encoder = ControlJSON.encoder
        encoder.outputFormatting.insert(.prettyPrinted)
        return String(decoding: (try? encoder.encode(document)) ?? Data(), as: UTF8.self) + "\n"
    }

    static func object(_ m: ControlMessageShape) -> ControlJSON {
        var schema = node(.object(m.fields), path: "", notes: m.notes)
        guard case .object(var o) = schema, case .object(var properties) = o["properties"] ?? [:],
              case .array(let required) = o["required"] ?? [] else { return schema }
        properties[m.kind] = ["const": .string(m.name)]
        o["properties"] = .object(properties)
        o["required"] = .array([.string(m.kind)] + required)
        o["title"] = .string("the `\(m.name)` \(m.kind)")
        schema = .object(o)
        return schema
    }

    static func node(_ shape: WireShape, path: String, notes: [String: FieldNote]) -> ControlJSON {
        var o: [String: ControlJSON]
        switch shape {
        case .string: o = ["type": "string"]
        case .number: o = ["type": "number"]
        case .integer: o = ["type": "integer"]
        case .boolean: o = ["type": "boolean"]
        case .oneOf(let values): o = ["type": "string", "enum": .array(values.map(ControlJSON.string))]
        case .stringOrNumber: o = ["type": ["string", "number"]]
        case .anyObject: o = ["type": "object"]
        case .array(let element): o = ["type": "array", "items": node(element, path: path + "[]", notes: notes)]
        case .object(let fields):
            let prefix = path.isEmpty ? "" : path + "."
            o = ["type": "object",
                 "properties": .object(Dictionary(uniqueKeysWithValues: fields.map { ($0.name, node($0.shape, path: prefix + $0.name, notes: notes)) })),
                 "required": .array(fields.filter(\.required).map { .string($0.name) })]
        }
        switch notes[path] {
        case .range(let r):
            o["minimum"] = .number(r.lowerBound)
            o["maximum"] = .number(r.upperBound)
        case .wholeRange(let r):
            o["type"] = "integer"
            o["minimum"] = .number(r.lowerBound)
            o["maximum"] = .number(r.upperBound)
        case .oneOf(let values):
            o["enum"] = .array(values.map(ControlJSON.string))
        case nil: break
        }
        return .object(o)
    }
}
