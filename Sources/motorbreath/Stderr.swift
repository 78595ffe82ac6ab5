// Writing to standard error, the single-line error exit every command uses, and --json output.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Foundation
import Glibc
import SafeOutput

enum Stderr {
    static func write(_ text: String) {
        var t = text
        t.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    static var isTerminal: Bool { isatty(2) == 1 }
}

/// Prints "motorbreath: <message>" on stderr and exits with `code`, no stack trace. The message is one
/// line whatever the input it quotes: control characters (a NUL, a newline, an escape) are shown escaped.
func fail(_ message: CustomStringConvertible, code: Int32 = 1) -> ExitCode {
    Stderr.write("motorbreath: \(oneLine(message.description))\n")
    return ExitCode(code)
}

/// An output file's line; when only its last step failed, where the whole output is kept instead.
func fail(_ error: OutputFileError) -> ExitCode {
    fail(error.keptAt.map { "\(error.description); the whole output is kept in \($0)" } ?? error.description)
}

/// `text` with every control character written as a Swift-style escape (\n, \t, \u{1B}), so text quoted
/// from a user's input can neither break an error line nor drive the terminal.
func oneLine(_ text: String) -> String {
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

/// Prints `value` as pretty, key-sorted JSON on stdout: the `--json` output of every command.
func printJSON(_ value: any Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
