// `motorbreath ports`: the serial ports on this machine, for people and (with --json) for scripts.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import MotorSession
import SerialLink

struct PortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List serial ports (path, description, USB VID:PID, manufacturer, product, serial number).",
        discussion: """
            USB (and Bluetooth) serial ports are listed; built-in UARTs such as /dev/ttyS0 only with --all \
            (most PCs report some that have nothing attached). Pseudo-terminals are not listed \
            (libserialport skips virtual ttys) but work with --port.
            """
    )

    @Flag(help: "Also list built-in UARTs (/dev/ttyS*, /dev/ttyAMA* on a Raspberry Pi).")
    var all = false

    @Flag(help: "Print a JSON array.")
    var json = false

    @Flag(help: "Ask each port whether a motorbreath board answers (HELLO); marks the ones that do.")
    var probe = false

    func run() throws {
        let survey: PortSurvey
        do { survey = try PortSurvey(all: all, probe: probe) } catch { throw fail(error) }
        if json { try printJSON(survey.rows) } else { print(survey.text) }
    }
}
