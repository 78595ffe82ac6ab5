// Writing to standard error, the single-line error exit every command uses, and --json output.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Foundation
import Glibc
import LiveText
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

/// Prints `value` as pretty, key-sorted JSON on stdout: the `--json` output of every command.
func printJSON(_ value: any Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
