// The motorbreath command: subcommands, and the one-line error convention for every failure.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Glibc
import LiveText
import MotorSession
import MotorWire

@main
struct MotorBreath: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motorbreath",
        abstract: "Breath waveforms felt on a vibration motor, streamed to a USB motor board on the board's own clock.",
        // Paragraphs are one line each (a trailing \ joins source lines): ArgumentParser wraps them to the
        // terminal. Example lines stay under 80 columns so they never wrap.
        discussion: """
            Plays a breathing pattern on a motor board: the inhale swells, the hold is silent, the exhale \
            fades. Frames are rendered ahead of time and the board plays each one at a tick the host chose, \
            so USB and host scheduling delays do not reach the skin.

            Examples:
              motorbreath --simulate                # 4-7-8 once, simulated board
              motorbreath --port /dev/ttyUSB0 --cycles 4
              motorbreath --simulate --pattern box --json
              motorbreath render --pattern 4-7-8 --format svg -o breath.svg
              motorbreath fidelity                  # felt error, render speed
              motorbreath calibrate --port /dev/ttyUSB0 --spot wrist
            """,
        version: MotorbreathVersion.text,
        subcommands: [Play.self, PortsCommand.self, InfoCommand.self, BenchCommand.self, ConformCommand.self, LatencyCommand.self, PaletteCommand.self, CalibrateCommand.self, SelftestCommand.self, RenderCommand.self, FidelityCommand.self, BenchmarkCommand.self, SimBoardCommand.self, ServeCommand.self, DoctorCommand.self],
        defaultSubcommand: Play.self
    )

    /// Parses and runs like ArgumentParser's own main, but every error is one line on stderr
    /// ("motorbreath: ...", no usage block) and a word that is no command says so.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let line = unknownCommandLine(arguments) {
            Stderr.write(line + "\n")
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }  // --help, --version
            if let line = errorLine(for: error) { Stderr.write(line + "\n") }
            Glibc.exit(code.rawValue)
        }
    }

    /// The line for a first word that is no command (nil: it is one, or an option).
    static func unknownCommandLine(_ arguments: [String]) -> String? {
        let commands = configuration.subcommands.map { $0._commandName } + ["help"]
        guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first) else { return nil }
        return "motorbreath: unknown command '\(oneLine(first))' (commands: \(OptionValue.list(commands.filter { $0 != "help" })); see motorbreath --help)"
    }

    /// The one line a parse or run error prints: "motorbreath: " and ArgumentParser's message, its lines
    /// joined (nil when it has none).
    static func errorLine(for error: Error) -> String? {
        let lines = message(for: error).split(separator: "\n")
        return lines.isEmpty ? nil : "motorbreath: \(oneLine(lines.joined(separator: "; ")))"
    }
}
