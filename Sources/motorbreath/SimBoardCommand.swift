// `motorbreath sim-board`: a simulated board in its own process behind a pseudo-terminal.

import ArgumentParser
import Glibc
import MotorWire
import SerialLink
import SimBoard

struct SimBoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim-board",
        abstract: "Run a simulated motor board on a new pseudo-terminal and print its path.",
        discussion: """
            The board runs the same BoardCore logic as the firmware, on its own clock. Connect with
            `motorbreath --port <printed path>`. Stops on SIGINT/SIGTERM.
            """
    )

    @Option(help: "Motor kind: erm or lra.")
    var motor: String = "erm"

    @Option(help: "Board clock error in parts per million (positive = fast).")
    var driftPpm: Double = 0

    @Option(help: "Write the board's drive changes as 'tick level' lines to this file on exit.")
    var driveLog: String?

    @Flag(help: "Be an echo (loopback) instead of a board: every byte comes back (for selftest --loopback).")
    var echo = false

    func run() throws {
        Signals.install()
        var spec = SimBoardSpec()
        guard let kind = ["erm": MotorKind.erm, "lra": .lra][motor] else {
            throw fail("unknown motor '\(motor)' (use erm or lra)")
        }
        spec.motor = kind
        spec.driftPPM = driftPpm
        let pty: PseudoTerminal
        do { pty = try PseudoTerminal() } catch { throw fail(error) }
        if echo {
            _ = "\(pty.slavePath)\n".withCString { Glibc.write(1, $0, strlen($0)) }
            while Signals.pending == 0 {
                if let bytes = try? pty.read(maxBytes: 65_536, timeoutMs: 20), !bytes.isEmpty { try? pty.write(bytes) }
            }
            return
        }
        let board = SimulatedBoard(spec: spec, link: pty)
        board.persistent = true
        let line = pty.slavePath + "\n"
        _ = line.withCString { Glibc.write(1, $0, strlen($0)) }  // unbuffered: the parent waits for it
        board.start()
        while Signals.pending == 0 { usleep(20_000) }
        board.stop()
        if let path = driveLog {
            var text = ""
            for c in board.driveChanges { text += "\(c.tick) \(c.level)\n" }
            guard let f = fopen(path, "w") else { throw fail("cannot write \(path)") }
            fputs(text, f)
            fclose(f)
        }
    }
}
