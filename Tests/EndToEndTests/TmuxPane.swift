// A tmux server of its own (private socket) running one shell script in a pane of a chosen size: what a
// person sees in a terminal, read back as text. Debian's tmux; .ci/install installs it.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport

struct TmuxError: Error, CustomStringConvertible {
    var description: String
}

final class TmuxPane {
    let socket = "motorbreath-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    /// The pane's own directory (its script, and the file `$PANE_DIR/pid` a script may write); removed by kill().
    let directory: URL
    var pidFile: URL { directory.appendingPathComponent("pid") }
    /// The last lines read, for failure messages.
    private(set) var lastSeen: [String] = []

    /// Starts a server with no configuration file and a detached session of `columns` x `rows` running
    /// `script` with sh, PANE_DIR set. Call `kill()` in a defer.
    init(columns: Int, rows: Int = 24, script text: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pane-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("script.sh")
        try text.write(to: script, atomically: true, encoding: .utf8)
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
                  "-e", "PANE_DIR=\(directory.path)", "-e", "XDG_CONFIG_HOME=\(testConfigHome.path)",
                  "exec sh '\(script.path)'"])
    }

    /// Stops the server and everything running in it.
    func kill() {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// The pane's rows as text: rows the terminal wrapped are joined back (a line wider than the pane
    /// shows as one long line), trailing blanks and empty rows dropped. `history`: the scrollback too;
    /// `escapes`: with the colour and attribute sequences of each cell.
    func lines(history: Bool = false, escapes: Bool = false) throws -> [String] {
        var args = ["capture-pane", "-p", "-J"]
        if history { args += ["-S", "-"] }
        if escapes { args.append("-e") }
        let text = try tmux(args)
        lastSeen = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
            .filter { !$0.isEmpty }
        return lastSeen
    }

    /// Reads the pane every 50 ms until `done` holds (its lines then) or `timeout` seconds pass (throws).
    /// Sleeps without holding a thread: the test pool of a 2-core machine has two.
    func wait(timeout: Double = 40, history: Bool = false, escapes: Bool = false,
              for what: String, until done: ([String]) -> Bool) async throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let l = try lines(history: history, escapes: escapes)
            if done(l) { return l }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TmuxError(description: "no \(what) within \(Int(timeout)) s; the pane showed:\n" + lastSeen.joined(separator: "\n"))
    }

    func resize(columns: Int) throws {
        try tmux(["resize-window", "-x", "\(columns)"])
    }

    func sendKeys(_ keys: String) throws {
        try tmux(["send-keys", keys])
    }

    /// Whether the pane shows its cursor (an application hides it with ESC [ ? 25 l).
    func cursorVisible() throws -> Bool {
        try tmux(["display-message", "-p", "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Runs the tmux client and returns what it printed. Spawned with no signal blocked and every
    /// signal at its default: the test runner blocks signals, and a tmux server (and the shells in its
    /// panes) inheriting that mask would shrug off SIGHUP and kill-server. Output goes to a file, not a
    /// pipe: the server the first client forks would hold a pipe open forever.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = directory.appendingPathComponent("tmux-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let status = try spawnWithCleanSignals(["tmux", "-L", socket] + arguments, output: output.path)
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        if status == 127 { throw TmuxError(description: "tmux is not installed (.ci/install installs it)") }
        guard status == 0 else { throw TmuxError(description: "tmux \(arguments.joined(separator: " ")): \(text)") }
        return text
    }
}

/// posix_spawnp of `arguments` (stdout and stderr to `output`, stdin from /dev/null) with an empty
/// signal mask and default dispositions, without TMUX in its environment; returns its exit status.
func spawnWithCleanSignals(_ arguments: [String], output: String) throws -> Int32 {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var files = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&files)
    defer { posix_spawn_file_actions_destroy(&files) }
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&files, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&files, 1, 2)

    // A test run inside tmux must not talk to the user's server.
    let environment = ProcessInfo.processInfo.environment.filter { $0.key != "TMUX" }.map { "\($0.key)=\($0.value)" }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let error = posix_spawnp(&pid, arguments[0], &files, &attributes, argv, envp)
    if error == ENOENT { return 127 }
    guard error == 0 else { throw TmuxError(description: "cannot start \(arguments[0]): \(String(cString: strerror(error)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}
