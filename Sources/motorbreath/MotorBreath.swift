// The motorbreath command: subcommands, and the one-line error convention for every failure.

import ArgumentParser

@main
struct MotorBreath: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motorbreath",
        abstract: "Breath waveforms felt on a vibration motor, streamed to a USB motor board on the board's own clock.",
        discussion: """
            Plays a breathing pattern on a motor board: the inhale swells, the hold is silent, the exhale fades.
            Frames are rendered ahead of time and the board plays each one at a tick the host chose, so
            USB and host scheduling delays do not reach the skin.

            Examples:
              motorbreath --simulate                      4-7-8 once on the built-in simulated board
              motorbreath --port /dev/ttyUSB0 --cycles 4  four 4-7-8 breaths on a real board
              motorbreath --simulate --pattern box --json
              motorbreath render --pattern 4-7-8 --format svg -o breath.svg
              motorbreath fidelity                        felt-vs-intended error and render speed
            """,
        subcommands: [Play.self, PortsCommand.self, InfoCommand.self, BenchCommand.self, SelftestCommand.self, RenderCommand.self, FidelityCommand.self, BenchmarkCommand.self, SimBoardCommand.self],
        defaultSubcommand: Play.self
    )
}
