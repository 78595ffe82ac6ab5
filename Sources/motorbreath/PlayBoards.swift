// play's boards: --simulate or one --port as every command has them, or several boards in step: --port given
// more than once, or a named layout (--board left=/dev/ttyUSB0 --board right=sim:ftdi).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import Playback
import SerialLink
import SimBoard

/// play's board options: `BoardArguments`' (--simulate, the port options) and --board, repeatable.
struct PlayBoardArguments: ParsableArguments {
    @Flag(help: "Use the built-in simulated board instead of a port (no hardware needed).")
    var simulate = false

    @Option(name: .customLong("board"), help: ArgumentHelp("One board of several played in step, by name: NAME=PATH (a port), NAME=sim or NAME=sim:LINK (a simulated board, LINK as --sim-link gives it, its clock too: drift=-50000ppm is 5 % slow). Give it once per board, e.g. --board left=/dev/ttyUSB0 --board right=/dev/ttyUSB1.", valueName: "name=place"),
            transform: NamedBoard.value)
    var boards: [NamedBoard] = []

    @Option(help: ArgumentHelp("With several boards: how the breath travels along them, in the order they are given. together: all swell at once (the default); rise: the inhale swells from the first board to the last and the exhale fades back, the travel taking half of each swell's phase (rise:0.3: 30 %); every board's phases still begin and end together.", valueName: "together|rise[:share]"),
            transform: SpreadValue.value)
    var spread: SpreadValue?

    @Option(name: .customLong("actuator"), help: ArgumentHelp("With several boards: one board's own place, strength and delay, e.g. --actuator chest:at=1,strength=0.7,offset=40ms (at: 0...1 along the line, evenly spaced in the order given by default; strength 0...1; offset 0...2000 ms later). Give it once per board it changes.", valueName: "name:at=p,strength=s,offset=ms"),
            transform: ActuatorValue.value)
    var actuators: [ActuatorValue] = []

    @OptionGroup(title: "Board connection") var connection: PortArguments

    func validate() throws {
        if !several && (spread != nil || !actuators.isEmpty) {
            throw ValidationError("--spread and --actuator place several boards: give each with --board NAME=PLACE (or --port more than once)")
        }
        if several {
            do { _ = try placements() } catch { throw ValidationError(error.description) }
        }
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
        let names = layout.map(\.name)
        if let twice = names.first(where: { n in names.filter { $0 == n }.count > 1 }) {
            throw ValidationError("two ports are both named \(twice) (their paths' last part): name them with --board NAME=PATH")
        }
    }

    /// Several boards play in step (--board, or --port more than once).
    var several: Bool { !boards.isEmpty || connection.ports.count > 1 }

    /// The boards by name: --board's, or each --port named by its path's last part (ttyUSB0).
    var layout: [NamedBoard] {
        if !boards.isEmpty { return boards }
        return connection.ports.map { NamedBoard(name: String($0.split(separator: "/").last ?? Substring($0)), place: .port($0)) }
    }

    /// Each board's place in the breath (--spread, --actuator), in the layout's order.
    func placements() throws(ValueProblem) -> [Placement] {
        try ActuatorLayout.places(names: layout.map(\.name), spread: spread, actuators: actuators)
            .map { Placement(spread: $0.spread, offsetMs: $0.offsetMs) }
    }

    /// The boards to open: the layout's, or the one board of --simulate (on `simLink`) or --port.
    func namedPlaces(simLink: SimLink?) -> [NamedPlace] {
        if several {
            return layout.map { b in
                switch b.place {
                case .port(let path): NamedPlace(b.name, .port(path))
                case .simulated(let link): NamedPlace(b.name, .simulated(impairments: link?.impairments ?? LinkImpairments()))
                }
            }
        }
        if simulate { return [NamedPlace("board", .simulated(impairments: simLink?.impairments ?? LinkImpairments()))] }
        return [NamedPlace("board", .port(connection.port ?? "auto"))]
    }
}
