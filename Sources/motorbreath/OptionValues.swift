// Option values checked where they are parsed: each parser returns the value or says what the option takes,
// and ArgumentParser prints it as one line: "The value '-1' is invalid for '--cycles <cycles>': expected ...".
// Options that take numbers use `parsing: .unconditional`, so a negative value is read as a value (and then
// accepted or refused by its range) instead of as an unknown option ("Missing value").

import ArgumentParser
import Breath
import SimBoard

/// What an option value should have been.
struct ValueProblem: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}

enum OptionValue {
    /// A whole number in `range`.
    static func int(_ range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
        { text in
            guard let v = Int(text), range.contains(v) else {
                throw ValueProblem("expected a whole number \(range.lowerBound)...\(range.upperBound)")
            }
            return v
        }
    }

    /// A whole number 0 or more (seeds).
    static func uint64(_ text: String) throws -> UInt64 {
        guard let v = UInt64(text) else { throw ValueProblem("expected a whole number 0...\(UInt64.max)") }
        return v
    }

    /// A finite number in `range` (`above` excludes its lower end: "more than 0").
    static func double(_ range: ClosedRange<Double>, above: Bool = false) -> @Sendable (String) throws -> Double {
        { text in
            guard let v = Double(text), v.isFinite, range.contains(v), !(above && v == range.lowerBound) else {
                let low = above ? "more than \(trim(range.lowerBound))" : "\(trim(range.lowerBound))"
                throw ValueProblem(above ? "expected a number \(low) and at most \(trim(range.upperBound))"
                                         : "expected a number \(low)...\(trim(range.upperBound))")
            }
            return v
        }
    }

    /// One of `choices` (returned as given).
    /// Permissions of a socket, octal (600, 0660, 666): the owner can always read and write.
    static func socketMode(_ text: String) throws -> Int {
        guard let v = Int(text, radix: 8), (0...0o777).contains(v), v & 0o600 == 0o600 else {
            throw ValueProblem("expected octal permissions that let you read and write, such as 600, 660 or 666")
        }
        return v
    }

    static func choice(_ choices: [String]) -> @Sendable (String) throws -> String {
        { text in
            guard choices.contains(text) else { throw ValueProblem("expected \(list(choices))") }
            return text
        }
    }

    /// A breath pattern: a preset or in-hold-out[-holdout] seconds (kept as text, checked here).
    static func pattern(_ text: String) throws -> String {
        do { _ = try BreathPattern.parse(text) } catch { throw ValueProblem(error.reason) }
        return text
    }

    static func strength(_ text: String) throws -> String {
        do { _ = try Strength.parse(text) } catch { throw ValueProblem(error.reason) }
        return text
    }

    /// A body spot: a word of lower-case letters, digits and dashes (it becomes part of a file name).
    static func spot(_ text: String) throws -> String {
        let ok = !text.isEmpty && text.count <= 32 && text.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        guard ok, !text.hasPrefix("-") else { throw ValueProblem("a spot is a word of a-z, 0-9 and dashes, at most 32 letters, e.g. wrist") }
        return text
    }

    /// A profile: none, or a saved profile's name (a word: it is a file name).
    static func profile(_ text: String) throws -> String {
        guard !text.isEmpty, !text.contains("/"), !text.hasPrefix(".") else {
            throw ValueProblem("expected none or a profile name such as 53494d424f415244-wrist (see motorbreath calibrate)")
        }
        return text
    }

    static func ramp(_ text: String) throws -> String {
        do { _ = try BreathOptions.parseRamp(text) } catch { throw ValueProblem(error.reason) }
        return text
    }

    static func simLink(_ text: String) throws -> String {
        do { _ = try LinkImpairments.parse(text) } catch {
            throw ValueProblem(error.text == text ? error.reason : "'\(error.text)': \(error.reason)")
        }
        return text
    }

    /// "a, b or c".
    static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

    /// 1440.0 -> "1440", 0.5 -> "0.5".
    static func trim(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
    }
}
