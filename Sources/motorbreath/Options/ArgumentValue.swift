// Option values that parse themselves once: each type's `value(_:)` holds its range and its one error
// line, and ArgumentParser prints that line as "The value 'x' is invalid for '--o <o>': expected ...".
// Declarations pass `transform: T.value` (ArgumentParser's ExpressibleByArgument init cannot give a reason);
// the types are ExpressibleByArgument too, for completion and for code that builds them from text.
// Options that take numbers use `parsing: .unconditional`, so a negative value is read as a value (and then
// accepted or refused by its range) instead of as an unknown option ("Missing value").
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser

/// What an option value should have been: the reason on the option's one error line.
struct ValueProblem: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}

/// An option value that parses itself once, its range and its error line in `value(_:)`.
protocol ArgumentValue: ExpressibleByArgument {
    /// The value `text` stands for, or the problem (what the option takes).
    static func value(_ text: String) throws(ValueProblem) -> Self
}

extension ArgumentValue {
    /// The value, or nil when `value(_:)` refuses it.
    public init?(argument: String) {
        guard let v = try? Self.value(argument) else { return nil }
        self = v
    }
}

/// An option value that is one of a few words: its error line lists them.
protocol ChoiceValue: ArgumentValue, CaseIterable, RawRepresentable where RawValue == String {}

extension ChoiceValue {
    public init?(argument: String) { self.init(rawValue: argument) }

    static func value(_ text: String) throws(ValueProblem) -> Self {
        guard let v = Self(rawValue: text) else { throw ValueProblem("expected \(OptionValue.list(allCases.map(\.rawValue)))") }
        return v
    }
}
