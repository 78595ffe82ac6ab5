// play's boards: --simulate or one --port as every command has them, or several boards in step: --port given
// more than once, or a named layout (--board left=/dev/ttyUSB0 --board right=sim:ftdi).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import MotorSession
import SerialLink
import SimBoard

/// play's board options: `BoardArguments`' (--simulate, the port options) and --board, repeatable.
struct PlayBoardArguments: ParsableArguments {
    @Flag(help: "Use the built-in simulated board instead of a port (no hardware needed).")
    var simulate = false

    @Option(name: .customLong("board"), help: ArgumentHelp("One board of several played in step, by name: NAME=PATH (a port), NAME=sim or NAME=sim:LINK (a simulated board, LINK as --sim-link gives it, its clock too: drift=-50000ppm is 5 % slow). Give it once per board, e.g. --board left=/dev/ttyUSB0 --board right=/dev/ttyUSB1.", valueName: "name=place"),
            transform: NamedBoard.value)
    var boards: [NamedBoard] = []

    @OptionGroup(title: "Board connection") var connection: PortArguments

    func validate() throws {
        if !boards.isEmpty {
            guard !simulate && connection.ports.isEmpty else {
                throw ValidationError("use --board for every board, not with --simulate or --port")
            }
            var seen = Set<String>()
            for b in boards where !seen.insert(b.name).inserted { throw ValidationError("two boards are named \(b.name)") }
            return
        }
        guard simulate || connection.port != nil else {
            throw ValidationError("say where the board is: --port /dev/ttyUSB0, or --simulate to run without one")
        }
        guard !(simulate && connection.port != nil) else { throw ValidationError("use --simulate or --port, not both") }
        let paths = Set(connection.ports)
        guard paths.count == connection.ports.count else { throw ValidationError("a port is given twice: each board once") }
    }

    /// Several boards play in step (--board, or --port more than once).
    var several: Bool { !boards.isEmpty || connection.ports.count > 1 }

    /// The boards by name: --board's, or each --port named by its path's last part (ttyUSB0).
    var layout: [NamedBoard] {
        if !boards.isEmpty { return boards }
        return connection.ports.map { NamedBoard(name: String($0.split(separator: "/").last ?? Substring($0)), place: .port($0)) }
    }

    /// The simulated board `simulated` makes with --simulate, else the port.
    func connect(quiet: Bool = false, simulated: () -> BoardConnection) throws -> BoardConnection {
        simulate ? simulated() : try connection.connect(quiet: quiet)
    }
}
