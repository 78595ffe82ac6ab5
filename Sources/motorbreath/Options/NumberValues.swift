// Numbers in a range, checked where they are parsed (`transform: OptionValue.int(50...1000)`: the range
// next to the option), and the words of error lines ("a, b or c"). Typed values are in ArgumentValue.swift.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser

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

    /// "a, b or c".
    static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

    /// 1440.0 -> "1440", 0.5 -> "0.5".
    static func trim(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
    }
}
