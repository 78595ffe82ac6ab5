// What a person sees in a terminal (tmux): play's live line at 40, 80, 100 and 200 columns and across
// resizes, the breath view, the terminal given back after Ctrl-C and SIGTERM, bench and benchmark
// progress at 40 columns; and the one-line-per-phase log when stderr is not a terminal.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

// Serialized: one motorbreath at a time in real time on a shared 2-core machine. The tests wait with
// Task.sleep, never holding one of the test pool's threads while a pane plays.
@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct TerminalViewTests {
    static let shortPlay = ["--simulate", "--pattern", "2-2-2", "--cycles", "1"]

    /// In a real terminal at the narrowest width (every width's layout is checked in process by
    /// LiveLineLayoutTests, and a width change mid-run by the resize test below).
    @Test(arguments: [40])
    func statusLineFitsAndStaysOneLine(columns: Int) async throws {
        let pane = try TmuxPane(columns: columns, script: Self.script(Self.shortPlay))
        defer { pane.kill() }
        let hold = try await pane.wait(history: true, for: "the hold") { $0.contains(where: Self.isHold) }
        Self.expectPane(hold, columns: columns, view: .status, phase: "hold")
        let end = try await pane.wait(history: true, for: "the end") { $0.last?.hasPrefix("exit ") == true }
        Self.expectPane(end, columns: columns, view: .status, phase: "exhale", exit: 0)

        // Fields go in their order of importance, link health first; the phase, countdown and bar stay.
        let live = hold[1]
        let shown = Self.optionalFields.map { live.contains($0) }
        #expect(!zip(shown, shown.dropFirst()).contains { !$0 && $1 }, "a field shown after a more important one was dropped: \(live)")
        if columns == 200 { #expect(shown.allSatisfy { $0 }, "\(live)") }
        if columns == 40 { #expect(shown.allSatisfy { !$0 }, "\(live)") }
    }

    /// Resized from 200 to 40 columns in the inhale (the line is then about 105 columns), and to 100
    /// before the end. `fullScreen`: output above fills the screen, as in a terminal used for a while;
    /// else the session starts at the top of an empty screen.
    @Test(arguments: [true, false])
    func resizeMidRunLeavesOneLine(fullScreen: Bool) async throws {
        let pane = try TmuxPane(columns: 200, rows: 12,
                                script: Self.script(Self.shortPlay, before: fullScreen ? "seq 30" : ""))
        defer { pane.kill() }
        _ = try await pane.wait(for: "the full status line at 200 columns") { $0.contains { $0.contains(" drift ") } }
        try pane.resize(columns: 40)
        let narrow = try await pane.wait(history: fullScreen, for: "the hold at 40 columns") {
            $0.contains { Self.isHold($0) && $0.count < 40 }
        }
        try pane.resize(columns: 100)
        let end = try await pane.wait(history: fullScreen, for: "the end") { $0.last?.hasPrefix("exit ") == true }
        if fullScreen {
            // The line started at the bottom of a full screen: tmux reflows it in place, and the scrollback
            // holds exactly what it should.
            Self.expectPane(Array(narrow.drop { $0 != "30" }.dropFirst()), columns: 40, view: .status, phase: "hold")
            Self.expectPane(Array(end.drop { $0 != "30" }.dropFirst()), columns: 100, view: .status, phase: "exhale", exit: 0)
        } else {
            // On an empty screen tmux pushes the top of the reflowed line (and the board line) into its
            // scrollback; the screen itself shows one live line and nothing else.
            Self.expectPane(["board: (maybe in the scrollback)"] + narrow.filter { !$0.hasPrefix("board: ") },
                            columns: 40, view: .status, phase: "hold")
            Self.expectPane(["board: (maybe in the scrollback)"] + end.filter { !$0.hasPrefix("board: ") },
                            columns: 100, view: .status, phase: "exhale", exit: 0)
        }
    }

    @Test func breathViewSwellsAndFadesInThePalette() async throws {
        let pane = try TmuxPane(columns: 80, script: Self.script(Self.shortPlay + ["--view", "breath"]))
        defer { pane.kill() }
        var samples: [(phase: String, bar: Int, raw: String)] = []
        var holdPane: [String]?
        var cursorHiddenWhileDrawing = false
        let deadline = Date().addingTimeInterval(40)
        var end: [String] = []
        while Date() < deadline {
            let raw = try pane.lines(history: true, escapes: true)
            let plain = raw.map(Self.stripEscapes)
            if plain.last?.hasPrefix("exit ") == true {
                end = raw
                break
            }
            if plain.count == 2, let m = Self.breathPhase(plain[1]) {
                samples.append((m, plain[1].filter { $0 == "█" }.count, raw[1]))
                if m == "hold" && holdPane == nil { holdPane = plain }
                if m == "inhale" && !cursorHiddenWhileDrawing { cursorHiddenWhileDrawing = !(try pane.cursorVisible()) }
            }
            try await Task.sleep(for: .milliseconds(40))
        }
        let endPlain = end.map(Self.stripEscapes)
        try #require(!end.isEmpty, "the session did not end; the pane showed:\n\(pane.lastSeen.joined(separator: "\n"))")
        Self.expectPane(try #require(holdPane), columns: 80, view: .breath, phase: "hold")
        Self.expectPane(endPlain, columns: 80, view: .breath, phase: "exhale", exit: 0)

        // The bar follows the intended intensity: it swells through the inhale, is empty in the hold,
        // and fades through the exhale (the 2-2-2 curves are monotonic).
        let inhale = samples.filter { $0.phase == "inhale" }.map(\.bar)
        let exhale = samples.filter { $0.phase == "exhale" }.map(\.bar)
        #expect(inhale.count >= 3 && exhale.count >= 3, "\(samples.map { ($0.phase, $0.bar) })")
        #expect(zip(inhale, inhale.dropFirst()).allSatisfy { $0 <= $1 } && inhale.last! > inhale.first!, "inhale bars \(inhale)")
        #expect(zip(exhale, exhale.dropFirst()).allSatisfy { $0 >= $1 } && exhale.first! > exhale.last!, "exhale bars \(exhale)")
        #expect(samples.filter { $0.phase == "hold" }.allSatisfy { $0.bar == 0 })
        #expect((inhale.max() ?? 0) > 40, "at its peak the bar spans most of the line: \(inhale)")

        // The terminal's palette (SGR 36 for the inhale), never 24-bit or 256-colour; the cursor hidden
        // while drawing and shown again after, the colours reset (the shell's line after it is plain).
        #expect(samples.contains { $0.phase == "inhale" && $0.raw.contains("\u{1B}[36m") })
        #expect(!samples.contains { $0.raw.contains("38;2") || $0.raw.contains("38;5") || $0.raw.contains("48;2") })
        #expect(cursorHiddenWhileDrawing)
        #expect(try pane.cursorVisible())
        #expect(end.last == "exit 0", "colours left on after the end: \(end.last.debugDescription)")
    }

    @Test func ctrlCGivesTheTerminalBack() async throws {
        let pane = try TmuxPane(columns: 80, script: Self.script(Self.shortPlay + ["--view", "breath"]))
        defer { pane.kill() }
        _ = try await pane.wait(escapes: true, for: "a coloured bar in the inhale") {
            $0.count == 2 && $0[1].contains("\u{1B}[36m█")
        }
        #expect(try !pane.cursorVisible())
        try pane.sendKeys("C-c")
        let end = try await pane.wait(history: true, escapes: true, for: "the exit") { $0.last?.contains("exit ") == true }
        Self.expectPane(end.map(Self.stripEscapes), columns: 80, view: .breath, phase: "inhale", exit: 130)
        #expect(end.last == "exit 130", "colours left on: \(end.last.debugDescription)")
        #expect(try pane.cursorVisible())
    }

    @Test func sigtermGivesTheTerminalBackAndNoColourMeansNone() async throws {
        let pane = try TmuxPane(columns: 80, script: Self.script(Self.shortPlay + ["--view", "breath"], environment: "export NO_COLOR=1"))
        defer { pane.kill() }
        let drawing = try await pane.wait(escapes: true, for: "a bar in the inhale") { $0.count == 2 && $0[1].contains("█") }
        #expect(!drawing[1].contains("\u{1B}["), "NO_COLOR is set, yet: \(drawing[1].debugDescription)")
        #expect(try !pane.cursorVisible())
        let pid = try #require(Int32(String(contentsOf: pane.pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        let end = try await pane.wait(history: true, for: "the exit") { $0.last?.hasPrefix("exit ") == true }
        Self.expectPane(end, columns: 80, view: .breath, phase: "inhale", exit: 143)
        #expect(try pane.cursorVisible())
    }

    @Test func benchProgressFits() async throws {
        let board = try SimBoardProcess()
        defer { _ = board.stop() }
        let pane = try TmuxPane(columns: 40, rows: 30,
                                script: Self.script(["bench", "--port", board.ptyPath, "--seconds", "1"]))
        defer { pane.kill() }
        let during = try await pane.wait(for: "the schedule step") { $0.contains { $0.hasPrefix("bench: schedule") } }
        #expect(during.count == 1 && during[0].count < 40, "\(during)")
        let end = try await pane.wait(history: true, for: "the end") { $0.last?.hasPrefix("exit ") == true }
        let progress = end.filter { $0.hasPrefix("bench: ") }
        #expect(progress.count == 1 && progress[0].count < 40 && progress[0].hasPrefix("bench: failsafe"), "\(end)")
        #expect(end.first?.hasPrefix("bench: ") == true && end[1].hasPrefix("bench of ") && end.last == "exit 0", "\(end)")
        #expect(try pane.cursorVisible())
    }

    @Test func benchmarkProgressFits() async throws {
        let pane = try TmuxPane(columns: 40, rows: 30, script: Self.script(["benchmark", "--minutes", "0.1"]))
        defer { pane.kill() }
        let end = try await pane.wait(history: true, for: "the end") { $0.last?.hasPrefix("exit ") == true }
        let progress = end.filter { $0.hasPrefix("benchmark: ") }
        #expect(progress.count == 1 && progress[0].count < 40 && progress[0].hasPrefix("benchmark: 3/3"), "\(end)")
        #expect(end.first?.hasPrefix("benchmark: ") == true && end[1].hasPrefix("# Timing benchmark") && end.last == "exit 0", "\(end)")
        #expect(try pane.cursorVisible())
    }

    /// Not a terminal: one line per phase, as before, and no escape sequences.
    @Test func notATerminalLogsOneLinePerPhase() async throws {
        let run = try RunningMotorbreath(Self.shortPlay)
        let deadline = Date().addingTimeInterval(60)
        while run.process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let r = run.finish(timeout: 1)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 5 && lines[0].hasPrefix("board: ") && lines[4].hasPrefix("played "), "\(lines)")
        // The countdown is read at the first redraw of the phase (every 100 ms): 2.0 or 1.9 s.
        let phases = lines.dropFirst().prefix(3).map { $0.replacing(try! Regex(#" [12]\.\d s$"#), with: "") }
        #expect(phases == ["cycle 1/1 inhale", "cycle 1/1 hold", "cycle 1/1 exhale"], "\(lines)")
        #expect(!r.stderr.contains("\u{1B}"))
    }

    // MARK: Reading the pane

    enum View { case status, breath }

    /// The optional fields of the status line, most important first.
    static let optionalFields = ["cycle ", "%", "underruns ", "buf ", "rtt ", "drift "]

    static var statusLine: Regex<AnyRegexOutput> {
        try! Regex(
        #"^(cycle 1/1  )?(inhale|hold|exhale) +\d+\.\d s  \[[█·]+\]( +\d+%)?(  buf \d+)?(  underruns \d+)?(  rtt \d+\.\d ms)?(  drift -?\d+ ppm)?(  resent \d+)?$"#)
    }
    static var breathLine: Regex<AnyRegexOutput> { try! Regex(#"^(inhale|hold|exhale) +\d+ s( +█+)?$"#) }

    static func isHold(_ line: String) -> Bool { line.hasPrefix("hold ") || line.hasPrefix("cycle 1/1  hold ") }

    static func breathPhase(_ line: String) -> String? {
        guard line.wholeMatch(of: breathLine) != nil else { return nil }
        return String(line.prefix { $0 != " " })
    }

    /// The text of a line captured with its escapes (trailing blanks dropped, as in `lines()`).
    static func stripEscapes(_ s: String) -> String {
        let text = s.replacing(try! Regex(#"\x1B\[[0-9;]*m"#), with: "")
        return String(text.reversed().drop { $0 == " " }.reversed())
    }

    /// The pane must hold exactly: the board line, one live line (of `phase`, narrower than the pane:
    /// the last column stays free) and, once it exited, the summary and the exit status. A wrapped live
    /// line shows up joined and too long; a remnant, as a line more.
    /// Characters are columns here: the lines hold ASCII, "█", "·" and "µ", one column each.
    static func expectPane(_ lines: [String], columns: Int, view: View, phase: String, exit: Int? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let pane = "the pane:\n" + lines.joined(separator: "\n")
        #expect(lines.count == (exit == nil ? 2 : 4), "\(pane)", sourceLocation: sourceLocation)
        guard lines.count >= 2 else { return }
        #expect(lines[0].hasPrefix("board: "), "\(pane)", sourceLocation: sourceLocation)
        let live = lines[1]
        #expect(live.count < columns, "the live line is \(live.count) columns in \(columns): \(pane)", sourceLocation: sourceLocation)
        #expect(live.wholeMatch(of: view == .status ? statusLine : breathLine) != nil, "not a live line: \(pane)",
                sourceLocation: sourceLocation)
        #expect(live.hasPrefix(phase) || live.hasPrefix("cycle 1/1  \(phase)"), "not in the \(phase): \(pane)",
                sourceLocation: sourceLocation)
        if let exit, lines.count == 4 {
            #expect(lines[2].hasPrefix("played "), "\(pane)", sourceLocation: sourceLocation)
            #expect(lines[3] == "exit \(exit)", "\(pane)", sourceLocation: sourceLocation)
        }
    }

    // MARK: The pane's script

    /// motorbreath with `arguments`, in the background so its pid can go to $PANE_DIR/pid (the shell
    /// ignores SIGINT, motorbreath handles it), then its exit status, then a sleep that keeps the pane.
    static func script(_ arguments: [String], environment: String = "unset NO_COLOR", before: String = "") -> String {
        """
        trap '' INT
        \(environment)
        \(before)
        '\(motorbreathBinary.path)' \(arguments.map { "'\($0)'" }.joined(separator: " ")) &
        echo $! > "$PANE_DIR/pid"
        wait $!
        echo "exit $?"
        exec sleep 600
        """
    }
}
