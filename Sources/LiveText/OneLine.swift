// Text quoted from a user's input made safe for one line of a terminal: control characters written as
// escapes, so quoted input can neither break an error line nor drive the terminal.
// SPDX-License-Identifier: Apache-2.0

/// `text` with every control character written as a Swift-style escape (\n, \t, \u{1B}), so text quoted
/// from a user's input can neither break an error line nor drive the terminal.
public func oneLine(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
            out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
