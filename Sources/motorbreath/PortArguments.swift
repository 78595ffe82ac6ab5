// The options that say how to reach a real board (--port, --baud, --driver, modem lines, boot wait),
// shared by every command that opens a board, and `--simulate` for those that can play on the simulated one.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import MotorSession
import Playback
import SerialLink
import SimBoard

extension LinkSettings.Driver: ExpressibleByArgument {}

/// on/off for a modem line.
enum LineLevel: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

struct PortArguments: ParsableArguments {
    @Option(name: .customLong("port"), help: "Serial port of the board, e.g. /dev/ttyUSB0, a pseudo-terminal such as /dev/pts/3, or auto (the one port whose board answers). play takes it once per board to play several in step.")
    var ports: [String] = []

    /// The port (the last one given, as a repeated option always meant).
    var port: String? { ports.last }

    @Option(parsing: .unconditional, help: "Baud rate. Any rate the adapter can make, e.g. 115200, 250000, 500000, 1000000, 2000000 (default: 115200).",
            transform: OptionValue.int(LinkSettings.baudRange))
    var baud: Int = 115_200

    @Option(help: "Code that opens the port: auto (termios for pseudo-terminals, libserialport otherwise), libserialport or termios.")
    var driver: LinkSettings.Driver = .auto

    @Option(help: "DTR after opening (on/off). Linux raises DTR and RTS on open, which resets an Arduino.")
    var dtr: LineLevel?

    @Option(help: "RTS after opening (on/off).")
    var rts: LineLevel?

    @Flag(help: "Reset the board on purpose first: pulse DTR low for 100 ms (Arduino-style auto-reset wiring).")
    var resetBoard = false

    @Option(parsing: .unconditional, help: "Milliseconds to wait for the board to announce itself after the port opens, 100...60000 (an Arduino's bootloader takes 1-2 s; its noise is discarded) (default: 3000).",
            transform: OptionValue.int(100...60_000))
    var bootWait: Int = 3000

    @Flag(help: "Set an FTDI adapter's latency timer to 1 ms (needs write access to sysfs).")
    var lowLatency = false

    /// Session options as this connection sets them: how long to wait for the board's HELLO, and the baud
    /// rate the line budget is computed for.
    var sessionOptions: SessionOptions {
        var options = SessionOptions()
        options.helloTimeoutMs = bootWait
        options.baud = baud
        return options
    }

    /// How the playback layer opens the port: these settings, the reset pulse, the latency timer.
    var stageOptions: StageOptions {
        var options = StageOptions()
        options.settings = settings
        options.resetBoard = resetBoard
        options.lowLatency = lowLatency
        return options
    }

    var settings: LinkSettings {
        LinkSettings(baud: baud, driver: driver, dtr: dtr.map { $0 == .on }, rts: rts.map { $0 == .on })
    }

    /// The board on `--port` (`auto`: the one port whose board answers), opened by the playback layer with
    /// these settings: the FTDI latency advice (unless `quiet`), the optional reset pulse, one-line errors.
    func openStage(quiet: Bool = false) throws -> Stage {
        guard let port else { throw fail("say where the board is: --port /dev/ttyUSB0 (see: motorbreath ports)") }
        return try openBoards([NamedPlace("board", .port(port))], options: stageOptions, quiet: quiet)
    }
}

/// Opens `places` through the playback layer: its notes on stderr (unless `quiet`), an error as one line.
func openBoards(_ places: [NamedPlace], options: StageOptions, quiet: Bool) throws -> Stage {
    do {
        let stage = try Stage.open(places, options: options)
        if !quiet { stage.notes.forEach { Stderr.write("motorbreath: note: \($0)\n") } }
        return stage
    } catch { throw fail(error.description) }
}

/// `--simulate` or the port options: the board a playing command uses, checked once for every command.
struct BoardArguments: ParsableArguments {
    @Flag(help: "Use the built-in simulated board instead of a port (no hardware needed).")
    var simulate = false

    @OptionGroup(title: "Board connection") var connection: PortArguments

    func validate() throws {
        guard simulate || connection.port != nil else {
            throw ValidationError("say where the board is: --port /dev/ttyUSB0, or --simulate to run without one")
        }
        guard !(simulate && connection.port != nil) else { throw ValidationError("use --simulate or --port, not both") }
    }

    /// The board: `simulated` with --simulate (its pacing and seed in `options`), else the port.
    func openStage(quiet: Bool = false, simulated: BoardPlace, pacing: SimWorld.Pacing = .realTime, seed: UInt64 = 1) throws -> Stage {
        guard simulate else { return try connection.openStage(quiet: quiet) }
        var options = connection.stageOptions
        options.pacing = pacing
        options.seed = seed
        return try openBoards([NamedPlace("board", simulated)], options: options, quiet: quiet)
    }
}
