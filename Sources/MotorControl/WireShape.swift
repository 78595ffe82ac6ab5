// The shape of a message on the wire (its fields, their JSON types, which are always there), read from
// the message type's own Decodable conformance: the type is decoded once from a recorder that notes every
// field it asks for. The docs check and the JSON Schema are made from it, so neither can miss a field.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// A JSON value's shape as a message type declares it.
public indirect enum WireShape: Equatable, Sendable {
    case string, number, integer, boolean
    /// A string, one of these.
    case oneOf([String])
    /// A string or a number (a command's `id`).
    case stringOrNumber
    /// Any JSON object (a session's report).
    case anyObject
    case array(WireShape)
    case object([WireField])

    /// The shape of `type`'s wire form.
    public static func of<T: Decodable>(_ type: T.Type) -> WireShape {
        if let leaf = type as? any WireLeaf.Type { return leaf.wireShape }
        switch type {
        case is String.Type: return .string
        case is Bool.Type: return .boolean
        case is Double.Type, is Float.Type: return .number
        case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type, is UInt32.Type, is UInt.Type: return .integer
        default:
            let box = ShapeBox()
            _ = try? T(from: ShapeRecorder(box: box))
            if let element = box.element { return .array(element) }
            return .object(box.fields)
        }
    }
}

/// One field of an object: its wire name, its shape, and whether it is always there.
public struct WireField: Equatable, Sendable {
    public var name: String
    public var shape: WireShape
    public var required: Bool
}

/// A type whose wire shape is not its Decodable conformance's containers (an enum of strings, an id, any
/// JSON): it says its shape, and a value the recorder hands back.
protocol WireLeaf: Decodable {
    static var wireShape: WireShape { get }
    static var wireSample: Self { get }
}

extension WireLeaf where Self: CaseIterable & RawRepresentable, Self.RawValue == String {
    static var wireShape: WireShape { .oneOf(allCases.map(\.rawValue)) }
    static var wireSample: Self { allCases.first! }
}

extension BreathPhase: WireLeaf {}
extension PatternTiming: WireLeaf {}
extension FileState: WireLeaf {}
extension ControlID: WireLeaf {
    static var wireShape: WireShape { .stringOrNumber }
    static var wireSample: ControlID { .integer(0) }
}
extension ControlJSON: WireLeaf {
    static var wireShape: WireShape { .anyObject }
    static var wireSample: ControlJSON { .object([:]) }
}

/// What the recorder saw of one value: an object's fields, or an array's element.
final class ShapeBox {
    var fields: [WireField] = []
    var element: WireShape?

    func note(_ name: String, _ shape: WireShape, required: Bool) {
        if !fields.contains(where: { $0.name == name }) { fields.append(WireField(name: name, shape: shape, required: required)) }
    }
}

/// A Decoder that hands every value a type asks for a stand-in and notes what was asked.
struct ShapeRecorder: Decoder {
    let box: ShapeBox
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedShapeRecorder<Key>(box: box))
    }
    func unkeyedContainer() -> any UnkeyedDecodingContainer { UnkeyedShapeRecorder(box: box) }
    func singleValueContainer() -> any SingleValueDecodingContainer { SingleShapeRecorder() }

    /// A stand-in value of `type`, its shape noted in `box` by the containers it asks for.
    static func sample<T: Decodable>(_ type: T.Type) throws -> T {
        if let leaf = type as? any WireLeaf.Type, let value = leaf.wireSample as? T { return value }
        switch type {
        case is String.Type: return "" as! T
        case is Bool.Type: return false as! T
        case is Double.Type: return 0.0 as! T
        case is Float.Type: return Float(0) as! T
        case is Int.Type: return 0 as! T
        case is Int64.Type: return Int64(0) as! T
        case is UInt64.Type: return UInt64(0) as! T
        case is Int32.Type: return Int32(0) as! T
        case is UInt32.Type: return UInt32(0) as! T
        case is UInt.Type: return UInt(0) as! T
        default: return try T(from: ShapeRecorder(box: ShapeBox()))
        }
    }
}

struct KeyedShapeRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let box: ShapeBox
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        box.note(key.stringValue, WireShape.of(type), required: true)
        return try ShapeRecorder.sample(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        box.note(key.stringValue, WireShape.of(type), required: false)
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { optional(type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        box.note(key.stringValue, WireShape.of(type), required: true)
        return try ShapeRecorder.sample(type)
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        box.note(key.stringValue, WireShape.of(type), required: false)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(KeyedShapeRecorder<NestedKey>(box: ShapeBox()))
    }
    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer { UnkeyedShapeRecorder(box: ShapeBox()) }
    func superDecoder() -> any Decoder { ShapeRecorder(box: box) }
    func superDecoder(forKey key: Key) -> any Decoder { ShapeRecorder(box: ShapeBox()) }
}

/// An array: one element is recorded, then the array ends.
struct UnkeyedShapeRecorder: UnkeyedDecodingContainer {
    let box: ShapeBox
    var codingPath: [any CodingKey] { [] }
    var count: Int? { nil }
    var isAtEnd: Bool { box.element != nil }
    var currentIndex: Int { box.element == nil ? 0 : 1 }

    mutating func decodeNil() -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        box.element = WireShape.of(type)
        return try ShapeRecorder.sample(type)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(KeyedShapeRecorder<NestedKey>(box: ShapeBox()))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer { UnkeyedShapeRecorder(box: ShapeBox()) }
    mutating func superDecoder() -> any Decoder { ShapeRecorder(box: ShapeBox()) }
}

/// A single value that is no leaf the recorder knows: there is nothing to note.
struct SingleShapeRecorder: SingleValueDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try ShapeRecorder.sample(type) }
}
