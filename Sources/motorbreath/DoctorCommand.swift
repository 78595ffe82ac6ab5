// `motorbreath doctor`: what stands between this machine and a board, each with its one-line fix.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Doctor

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check this machine for what keeps a board's port from working, and say how to fix each.",
        discussion: """
            Checks: permission to open the port (the group to join, or a login to renew), brltty or \
            ModemManager claiming USB-serial adapters, motorbreath's udev rules, an FTDI adapter's 16 ms \
            latency timer, the port held open by another program. Reads only; changes nothing. Exits 1 when \
            something needs fixing.
            """
    )

    @Option(name: .customLong("port"), help: "A port to check (repeatable) (default: every /dev/ttyUSB* and /dev/ttyACM*).")
    var ports: [String] = []

    @Flag(help: "Print JSON: {\"ports\": [...], \"findings\": [{\"check\", \"problem\", \"fix\"}]}.")
    var json = false

    func run() throws {
        let report = Doctor(machine: .current).report(ports: ports)
        if json { try printJSON(report) } else { print(report.text) }
        if !report.findings.isEmpty { throw ExitCode(1) }
    }
}
