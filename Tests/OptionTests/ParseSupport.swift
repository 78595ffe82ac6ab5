// Parsing a command line in this process, as motorbreath's main does (no child process): the command it
// becomes, or the exit status and the one error line main would print.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
@testable import motorbreath

/// "The value 'V' is invalid for '--o <o>': why" (ArgumentParser's wording for a value an option refuses).
func invalid(_ value: String, _ option: String, _ why: String) -> String {
    "motorbreath: The value '\(value)' is invalid for '\(option) <\(option.dropFirst(2))>': \(why)"
}

let usage: Int32 = 64

/// The exit status and the error line main prints for `arguments` (status 0 and no line: it parsed).
func parseLine(_ arguments: [String]) -> (status: Int32, line: String?) {
    if let line = MotorBreath.unknownCommandLine(arguments) { return (ExitCode.validationFailure.rawValue, line) }
    do {
        _ = try MotorBreath.parseAsRoot(arguments)
        return (0, nil)
    } catch {
        return (MotorBreath.exitCode(for: error).rawValue, MotorBreath.errorLine(for: error))
    }
}

func parseLine(_ commandLine: String) -> (status: Int32, line: String?) {
    parseLine(commandLine.split(separator: " ").map(String.init))
}

/// The command `commandLine` parses to, as `T` (nil: it did not parse, or is another command).
func parsed<T: ParsableCommand>(_ commandLine: String, as: T.Type = T.self) -> T? {
    (try? MotorBreath.parseAsRoot(commandLine.split(separator: " ").map(String.init))) as? T
}
