// Writing to standard error, the single-line error exit every command uses, and --json output.

import ArgumentParser
import Foundation
import Glibc

enum Stderr {
    static func write(_ text: String) {
        var t = text
        t.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    static var isTerminal: Bool { isatty(2) == 1 }
}

/// Prints "motorbreath: <message>" on stderr and exits with `code`, no stack trace.
func fail(_ message: CustomStringConvertible, code: Int32 = 1) -> ExitCode {
    Stderr.write("motorbreath: \(message)\n")
    return ExitCode(code)
}

/// Prints `value` as pretty, key-sorted JSON on stdout: the `--json` output of every command.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
