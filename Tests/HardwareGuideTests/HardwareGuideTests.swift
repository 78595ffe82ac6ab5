// The hardware guide against the firmware: each board's netlist and README wiring tables must put the
// firmware's PWM and UART pins where the drive parts are, and its build table must state the ceiling
// the firmware enforces. A pin changed on one side only fails here.
// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// One board: where its files are, and which part pin each firmware signal must reach (the oracle:
/// the gate resistor or the DRV8833's inputs, the bridge's crossed-over UART lines).
struct BoardGuide: CustomTestStringConvertible, Sendable {
    let name: String
    let dir: String
    let ends: [String: [String: String]]  // build -> signal -> part pin
    /// The MCU pin's high level and its absolute-maximum current (ATmega328P datasheet, "Absolute Maximum
    /// Ratings": 40 mA per I/O pin; STM32F411 datasheet DS10314, "Current characteristics": 25 mA sunk or
    /// sourced by any I/O): the gate resistor alone limits the current that charges the MOSFET's gate.
    let pinVolts: Double
    let pinMaxMilliamps: Double

    var testDescription: String { name }

    static let all = [
        BoardGuide(name: "avr", dir: "hardware/avr", ends: [
            "erm": ["PWM_A": "R1.1"],
            "erm-hbridge": ["PWM_A": "U2.AIN1", "PWM_B": "U2.AIN2"],
            "lra": ["PWM_A": "U2.AIN1", "PWM_B": "U2.AIN2"],
        ], pinVolts: 5.0, pinMaxMilliamps: 40),
        BoardGuide(name: "stm32", dir: "hardware/stm32", ends: [
            "erm": ["PWM_A": "R1.1", "UART_TX": "U3.RXD", "UART_RX": "U3.TXD"],
            "erm-hbridge": ["PWM_A": "U2.AIN1", "PWM_B": "U2.AIN2", "UART_TX": "U3.RXD", "UART_RX": "U3.TXD"],
            "lra": ["PWM_A": "U2.AIN1", "PWM_B": "U2.AIN2", "UART_TX": "U3.RXD", "UART_RX": "U3.TXD"],
        ], pinVolts: 3.3, pinMaxMilliamps: 25),
    ]

    func firmware() throws -> FirmwarePins { name == "avr" ? try .avr() : try .stm32() }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct HardwareGuideTests {
    @Test("the netlist wires each firmware pin to its drive part", arguments: BoardGuide.all)
    func netlistMatchesFirmware(board: BoardGuide) throws {
        let firmware = try board.firmware(), netlist = try Netlist(path: board.dir + "/netlist.json")
        #expect(Set(netlist.builds) == Set(board.ends.keys))
        for (build, ends) in board.ends.sorted(by: { $0.key < $1.key }) {
            for (signal, end) in ends.sorted(by: { $0.key < $1.key }) {
                let port = try #require(firmware.signals[signal], "\(board.name): the firmware defines no \(signal)")
                let pin = try #require(netlist.boardPin(port: port),
                                       "\(board.name) netlist: no U1 pin is \(port), the firmware's \(signal)")
                let net = netlist.net(of: "U1.\(pin)", build: build)
                #expect(net != nil && net == netlist.net(of: end, build: build),
                        "\(board.name) \(build): \(signal) is \(port) (U1.\(pin)) in the firmware, but the netlist puts U1.\(pin) on \(net ?? "no net") and \(end) on \(netlist.net(of: end, build: build) ?? "no net")")
            }
        }
    }

    @Test("the README wiring tables agree with the netlist and the firmware", arguments: BoardGuide.all)
    func wiringTablesMatch(board: BoardGuide) throws {
        let firmware = try board.firmware(), netlist = try Netlist(path: board.dir + "/netlist.json")
        let readme = try repoText(board.dir + "/README.md")
        for (build, ends) in board.ends.sorted(by: { $0.key < $1.key }) {
            let rows = try #require(table(after: "wiring: \(build)", in: readme), "\(board.name) README: no wiring table for \(build)")
            #expect(!rows.isEmpty)
            for row in rows {
                let (boardPin, port, rest) = (row[0], row[1], row.dropFirst(2).joined(separator: " "))
                var pins = try captures(#"\b([A-Z]+\d+\.[A-Za-z0-9+\-]+)"#, in: rest).map { $0[0] }
                if !boardPin.isEmpty { pins.append("U1.\(boardPin)") }
                if !port.isEmpty {
                    #expect(netlist.ports[boardPin] == port,
                            "\(board.name) README \(build): \(boardPin) is \(port) in the table, \(netlist.ports[boardPin] ?? "nothing") in the netlist")
                }
                let nets = Set(pins.map { netlist.net(of: $0, build: build) ?? "no net (\($0))" })
                #expect(nets.count == 1, "\(board.name) README \(build): row \(row.prefix(3)) joins \(pins) but the netlist has them on \(nets.sorted())")
            }
            // Every firmware signal of this build has its row, on the port the firmware uses, reaching its part.
            for (signal, end) in ends {
                let port = try #require(firmware.signals[signal])
                #expect(rows.contains { $0[1] == port && $0.joined().contains(end) },
                        "\(board.name) README \(build): no row with \(port) (the firmware's \(signal)) to \(end)")
            }
        }
    }

    @Test("the gate resistor keeps the PWM pin's peak current under its absolute maximum", arguments: BoardGuide.all)
    func gateResistorProtectsThePin(board: BoardGuide) throws {
        let json = try JSONSerialization.jsonObject(with: Data(try repoText(board.dir + "/netlist.json").utf8)) as! [String: Any]
        let r1 = try #require((json["parts"] as! [[String: Any]]).first { $0["ref"] as? String == "R1" }, "\(board.name): no R1")
        let value = try #require(r1["value"] as? String)
        let ohms = try #require(try captures(#"^(\d+(?:\.\d+)?) (k?)Ω, gate resistor"#, in: value).first, "\(board.name) R1: \(value)")
        let resistance = Double(ohms[0])! * (ohms[1] == "k" ? 1000 : 1)
        // Into an uncharged gate the pin sees the resistor alone: its peak current is V / R.
        let peak = board.pinVolts / resistance * 1000
        #expect(peak <= board.pinMaxMilliamps,
                "\(board.name): \(value) lets \(peak) mA from a \(board.pinVolts) V pin, past its \(board.pinMaxMilliamps) mA absolute maximum")
        // The guide's parts list names the same value.
        #expect(try repoText(board.dir + "/README.md").contains("| \(ohms[0]) Ω resistor | `erm` | gate resistor"))
    }

    @Test("the build table states the firmware's drive ceiling", arguments: BoardGuide.all)
    func ceilingsMatch(board: BoardGuide) throws {
        let firmware = try board.firmware(), readme = try repoText(board.dir + "/README.md")
        let rows = try #require(table(after: "builds", in: readme), "\(board.name) README: no build table")
        for build in board.ends.keys.sorted() {
            let row = try #require(rows.first { $0[0] == "`\(build)`" }, "\(board.name) README: no build row for \(build)")
            let stated = try captures(#"(\d+) %"#, in: row[2]).first.flatMap { Int($0[0]) }
            #expect(stated != nil, "\(board.name) README \(build): no ceiling in \(row[2])")
            // The AVR firmware states its ceiling once it has one (MOTOR_RATED_MV / SUPPLY_MV in board.h).
            if let ceiling = firmware.ceilings[build] {
                #expect(stated == ceiling, "\(board.name) \(build): the README says \(stated ?? -1) %, the firmware enforces \(ceiling) %")
            }
        }
        if board.name == "stm32" { #expect(firmware.ceilings.count == 3) }
    }

    @Test("each schematic is drawn from the current netlist's nets", arguments: BoardGuide.all)
    func schematicsCarryTheNets(board: BoardGuide) throws {
        let netlist = try Netlist(path: board.dir + "/netlist.json")
        for build in netlist.builds {
            let svg = try repoText("\(board.dir)/schematic-\(build).svg")
            for net in (netlist.nets[build] ?? [:]).keys.sorted() {
                let label = net.replacingOccurrences(of: "&", with: "&amp;")
                #expect(svg.contains(">\(label)</text>"),
                        "\(board.dir)/schematic-\(build).svg has no label \(net): run python3 hardware/tools/schematic.py")
            }
        }
    }

    @Test("the udev rules cover the boards' USB ids and parse")
    func udevRules() throws {
        let rules = try repoText("hardware/udev/70-motorbreath.rules")
        let ids = ["1a86:7523", "1a86:7522", "1a86:55d4", "0403:6001", "0403:6014", "0403:6015", "10c4:ea60", "10c4:ea70",
                   "067b:2303", "2341:0043", "2341:0243", "2a03:0043", "0483:5740", "0483:df11", "0483:3748", "0483:374b"]
        // uaccess is acted on by systemd's 73-seat-late.rules: a file numbered after it grants nothing.
        var seen = Set<String>()
        for (number, line) in rules.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            // udev's syntax: comma-separated KEY op "value", KEY one of udev's names, op a match or an assignment.
            var keys: [String: String] = [:]
            for item in text.split(separator: ",") {
                let parts = try captures(#"^\s*([A-Z_]+(?:\{[A-Za-z_]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*$"#, in: String(item))
                let part = try #require(parts.first, "70-motorbreath.rules:\(number + 1): cannot parse '\(item)'")
                #expect(["ACTION", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS", "ENV", "ATTR", "ATTRS", "MODE", "GROUP",
                         "TAG", "SYMLINK", "RUN"].contains(part[0].split(separator: "{").first.map(String.init) ?? ""),
                        "70-motorbreath.rules:\(number + 1): unknown key \(part[0])")
                // Keys udev can only match (an assignment to them is "Invalid operator" in udevadm test).
                if ["ACTION", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS", "ATTRS"].contains(part[0].split(separator: "{").first.map(String.init) ?? "") {
                    #expect(part[1] == "==" || part[1] == "!=", "70-motorbreath.rules:\(number + 1): \(part[0]) can only be matched, not \(part[1])")
                }
                keys[part[0] + part[1]] = part[2]
                // A group is not portable (dialout, uucp, plugdev differ by distribution; udev ignores one
                // that does not exist): access comes from uaccess.
                #expect(part[0] != "GROUP", "70-motorbreath.rules:\(number + 1): GROUP=\(part[2]) is not on every distribution")
            }
            let vendor = keys["ATTRS{idVendor}=="] ?? keys["ATTR{idVendor}=="], product = keys["ATTRS{idProduct}=="] ?? keys["ATTR{idProduct}=="]
            if let vendor, let product {
                seen.insert("\(vendor):\(product)")
                if keys["SUBSYSTEM=="] == "tty" {
                    #expect(keys["ENV{ID_MM_DEVICE_IGNORE}="] == "1" && keys["TAG+="] == "uaccess",
                            "70-motorbreath.rules:\(number + 1): a board's tty needs uaccess and ID_MM_DEVICE_IGNORE")
                }
            }
        }
        #expect(seen.isSuperset(of: ids), "70-motorbreath.rules lacks \(Set(ids).subtracting(seen).sorted())")
        #expect(rules.contains(#"DRIVER=="ftdi_sio", ATTR{latency_timer}="1""#))
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SchematicScriptTests {
    @Test("the committed SVGs are exactly what schematic.py draws from the netlists")
    func schematicsUpToDate() throws {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(python, "python3 is needed (.ci/install installs it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [repositoryRoot.appendingPathComponent("hardware/tools/schematic.py").path, "--check"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }
}
