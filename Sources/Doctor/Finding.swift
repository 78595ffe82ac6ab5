// One thing that stands between this machine and a motor board, and the one line that fixes it.
// SPDX-License-Identifier: Apache-2.0

/// A problem `motorbreath doctor` found, with its fix: what a maker reads before their first breath.
///
///     for f in Doctor(machine: .current).examine() { print("✗ \(f.problem)\n  fix: \(f.fix)") }
public struct Finding: Sendable, Equatable, Codable {
    /// Which check found it: `port-access`, `serial-group`, `brltty`, `modemmanager`, `udev-rules`,
    /// `ftdi-latency`, `port-held`.
    public var check: String
    /// What is wrong, in one line.
    public var problem: String
    /// The command or step that fixes it, in one line.
    public var fix: String

    public init(check: String, problem: String, fix: String) {
        self.check = check
        self.problem = problem
        self.fix = fix
    }
}

/// What `motorbreath doctor --json` prints: the ports checked and what was found.
public struct DoctorReport: Sendable, Codable {
    public var ports: [String]
    public var findings: [Finding]

    public init(ports: [String], findings: [Finding]) {
        self.ports = ports
        self.findings = findings
    }
}

extension DoctorReport {
    /// Each finding and its fix on two lines, or that there is nothing to fix and what was checked.
    public var text: String {
        if findings.isEmpty { return "nothing to fix (\(ports.isEmpty ? "no board plugged in" : ports.joined(separator: ", ")))" }
        return findings.map { "✗ \($0.problem)\n  fix: \($0.fix)" }.joined(separator: "\n")
    }
}
