// `motorbreath sim-board`: a simulated board in its own process behind a pseudo-terminal.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Glibc
import MotorPhysics
import MotorWire
import SerialLink
import SimBoard

struct SimBoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim-board",
        abstract: "Run a simulated motor board on a new pseudo-terminal and print its path.",
        discussion: """
            The board runs the same BoardCore logic as the firmware, on its own clock. Connect with \
            `motorbreath --port <printed path>`. Stops on SIGINT/SIGTERM.
            """
    )

    @Option(help: "Motor kind: erm or lra (default: erm).", transform: MotorKind.value)
    var motor: MotorKind = .erm

    @Option(parsing: .unconditional, help: "Board clock error in parts per million, -50000...50000 (+-5 %, as drift= of --sim-link; positive = fast) (default: 0).",
            transform: OptionValue.double(-50_000...50_000))
    var driftPpm: Double = 0

    @Option(help: "Write the board's drive changes as 'tick level' lines to this file as it runs (with its clock origin first and a summary line at exit).")
    var driveLog: String?

    @Flag(help: "Be an echo (loopback) instead of a board: every byte comes back (for selftest --loopback).")
    var echo = false

    @Option(help: "Also make the port reachable at this path, a symlink: a stable name across restarts, like socat's link=. Made only where nothing is, or over the link of a board that is gone (its pseudo-terminal no longer exists); removed at exit only while it still names this board. Anything else at the path is refused.")
    var link: String?

    @Option(parsing: .unconditional, help: "Fault injection: this many seconds after the first START (0...86400), hear nothing for --deaf-ms (the failsafe fires; the host must re-prepare).",
            transform: OptionValue.double(0...86_400))
    var deafAfter: Double?

    @Option(parsing: .unconditional, help: "How long the board stays deaf, ms (1...60000) (default: 300).", transform: OptionValue.int(1...60_000))
    var deafMs: Int = 300

    @Option(parsing: .unconditional, help: "How far ahead of its tick the board hands each frame to its output, ms (0...100): what covers this process's late wake-ups, as a DMA buffer does on hardware; a live change cannot reach a frame already handed over (default: 20).",
            transform: OptionValue.int(0...100))
    var outputLeadMs: Int = 20

    @Option(help: "Drive this motor file's physical motor (hardware/motors/*.json) and carry an accelerometer on it (SENSE): for bench --vibration. Its kind replaces --motor.")
    var motorFile: String?

    @Option(help: "Break one promise of the protocol on purpose, to see `conform` catch it: failsafe-report (the failsafe fires silently) or window-edge (INFO claims twice the buffer).",
            transform: Breakage.value)
    var `break`: Breakage?

    func run() throws {
        Signals.install()
        var spec = SimBoardSpec()
        spec.motor = motor == .lra ? .lra : .erm
        spec.driftPPM = driftPpm
        spec.outputLeadMs = outputLeadMs
        if let motorFile { do { spec.carry(try MotorFile.load(path: motorFile)) } catch { throw fail(error) } }
        let pty: PseudoTerminal
        do { pty = try PseudoTerminal() } catch { throw fail(error) }
        if echo {
            _ = "\(pty.slavePath)\n".withCString { Glibc.write(1, $0, strlen($0)) }
            while Signals.pending == 0 {
                if let bytes = try? pty.read(maxBytes: 65_536, timeoutMs: 20), !bytes.isEmpty { try? pty.write(bytes) }
            }
            return
        }
        var name: PtyLinkName?
        if let link {
            do { name = try PtyLinkName.claim(link, for: pty.slavePath) } catch { throw fail(error) }
        }
        defer { name?.release() }
        let board = SimulatedBoard(spec: spec, link: pty)
        board.persistent = true
        if let path = driveLog {
            do { board.driveLog = try DriveLog(path: path) } catch { throw fail(error) }
        }
        board.breakage = `break`
        if let deafAfter { board.deafness = (deafAfter, deafMs) }
        let line = pty.slavePath + "\n"
        _ = line.withCString { Glibc.write(1, $0, strlen($0)) }  // unbuffered: the parent waits for it
        board.start()
        while Signals.pending == 0 { usleep(20_000) }
        board.stop()
    }
}
