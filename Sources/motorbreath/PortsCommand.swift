// `motorbreath ports`: the serial ports on this machine, for people and (with --json) for scripts.

import ArgumentParser
import Foundation
import SerialLink

struct PortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List serial ports (path, description, USB VID:PID, manufacturer, product, serial number).",
        discussion: "Pseudo-terminals are not listed (libserialport skips virtual ttys) but work with --port."
    )

    @Flag(help: "Print a JSON array.")
    var json = false

    func run() throws {
        let ports: [PortInfo]
        do { ports = try PortDiscovery.list() } catch { throw fail(error) }
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try enc.encode(ports), as: UTF8.self))
            return
        }
        if ports.isEmpty {
            print("no serial ports found (plug in the board; use --simulate to run without one)")
            return
        }
        for p in ports {
            var line = p.path.padding(24) + p.description
            if let vid = p.usbVID, let pid = p.usbPID { line += "  [\(vid):\(pid)]" }
            if let s = p.serialNumber { line += "  serial \(s)" }
            print(line)
        }
    }
}
