// `motorbreath conform --port PATH`: checks a board against every clause of protocol.md through its port,
// one line per clause with the section it checks, and exits 0 only when every clause passes.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Playback
import BoardAccess
import BoardConformance
import SerialLink
import SimBoard

struct ConformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Check a board against the protocol, clause by clause (framing, every message, windows, timing, STOP, the failsafe).",
        discussion: """
            Written for firmware authors: it needs nothing but the port. Each clause prints PASS, FAIL (with \
            what was seen) or N/A (a variant the board does not have), and the protocol.md section it checks. \
            It takes about 20 seconds and leaves the motor off. Exit status 0 only when every clause passes. \
            A board is held to the protocol revision it announces (1.0 when it announces none): clauses a \
            later revision introduced are N/A; --revision holds it to another. --simulate checks the reference \
            BoardCore, on a simulated board of its own.

            Examples:
              motorbreath conform --port /dev/ttyUSB0
              motorbreath conform --port /dev/ttyACM0 --baud 250000 --json
              motorbreath conform --simulate --only failsafe
            """
    )

    @OptionGroup var board: BoardArguments

    @Option(help: "Run only the clauses whose id starts with this (repeatable), e.g. framing, stop.deferred.")
    var only: [String] = []

    @Option(help: ArgumentHelp("Hold the board to this protocol revision (1.0, 1.1, 1.2) instead of the one it announces.",
                               valueName: "revision"))
    var revision: String?

    @Flag(help: "Print one JSON report on stdout.")
    var json = false

    func validate() throws {
        if let revision, Revision(parsing: revision).map({ $0 <= .current }) != true {
            throw ValidationError("--revision is one of 1.0 ... \(Revision.current), not '\(revision)'")
        }
    }

    func run() throws {
        Signals.install()
        // --simulate checks the reference BoardCore, on a simulated board of its own thread.
        let stage = try board.openStage(quiet: json, simulated: .simulatedThread())
        defer { stage.close() }
        let connected = stage.board
        let rig: Rig
        do { rig = try Rig(link: connected.link, bootWaitMs: board.connection.bootWait) } catch { throw fail("\(error)") }
        if let revision, let held = Revision(parsing: revision) { rig.heldTo = held }
        if !json {
            let announced = rig.info.revision == nil ? "announces no revision" : "announces revision \(rig.announced)"
            Stderr.write("board: \(rig.info.displayName), \(announced); held to revision \(rig.heldTo)\n")
        }
        let report = Conformance.run(rig, only: only) { r in
            if !json { print(r.lines.joined(separator: "\n")) }
        }
        if json { try printJSON(report) } else { print(report.summary) }
        if report.failed > 0 { throw ExitCode(1) }
    }
}
