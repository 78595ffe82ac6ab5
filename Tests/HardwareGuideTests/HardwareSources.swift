// Reads the files the hardware guide must agree on: the firmware's pin and ceiling definitions
// (hardware/avr/src/board.h, hardware/firmware/Sources/*.swift), each board's netlist.json, and the
// wiring and build tables of its README.md.
// SPDX-License-Identifier: Apache-2.0
import Foundation

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func repoText(_ path: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
}

/// Every match of `pattern` in `text`, as its capture groups.
func captures(_ pattern: String, in text: String) throws -> [[String]] {
    let regex = try NSRegularExpression(pattern: pattern)
    let ns = text as NSString
    return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
        (1..<match.numberOfRanges).map { match.range(at: $0).location == NSNotFound ? "" : ns.substring(with: match.range(at: $0)) }
    }
}

/// What the firmware drives: the MCU port pin of each signal, and each build's ceiling in percent.
struct FirmwarePins {
    var signals: [String: String]  // "PWM_A" -> "PB1"
    var ceilings: [String: Int]    // build -> percent; empty when the firmware does not state one

    /// The ATmega328P build: PIN_DRIVE_A/B are bits of port B (pwm.c drives them through PORTB/DDRB).
    static func avr() throws -> FirmwarePins {
        let board = try repoText("hardware/avr/src/board.h"), pwm = try repoText("hardware/avr/src/pwm.c")
        guard pwm.contains("DDRB |= _BV(PIN_DRIVE_A)") else { throw Failure("pwm.c no longer drives PIN_DRIVE_A on port B") }
        var signals: [String: String] = [:]
        for row in try captures(#"#define PIN_DRIVE_([AB]) (\d+)"#, in: board) { signals["PWM_" + row[0]] = "PB" + row[1] }
        var ceilings: [String: Int] = [:]
        if let supply = try captures(#"#define SUPPLY_MV (\d+)"#, in: board).first.flatMap({ Int($0[0]) }) {
            // One block per variant, in board.h's own #if order.
            let blocks = try captures(#"defined\(VARIANT_(\w+)\)([\s\S]*?)(?=#elif|#else)"#, in: board)
            for block in blocks {
                let build = block[0].lowercased().replacingOccurrences(of: "_", with: "-")
                if let rated = try captures(#"#define MOTOR_RATED_MV (\d+)"#, in: block[1]).first.flatMap({ Int($0[0]) }) {
                    ceilings[build] = Int((Double(rated) / Double(supply) * 100).rounded())
                }
            }
        }
        return FirmwarePins(signals: signals, ceilings: ceilings)
    }

    /// The STM32 build: TIM1 CH1/CH2N pins in MotorDrive.swift (AF1), USART1 in Usart.swift (AF7, RX pulled
    /// up), and Board.limits (the LRA branch first, as Board.swift writes it).
    static func stm32() throws -> FirmwarePins {
        let drive = try repoText("hardware/firmware/Sources/MotorDrive.swift")
        let usart = try repoText("hardware/firmware/Sources/Usart.swift")
        let board = try repoText("hardware/firmware/Sources/Board.swift")
        let pwm = try captures(#"GPIO\.([a-d])\.alternate\(pin: (\d+), af: 1\)"#, in: drive)
        guard pwm.count == 2 else { throw Failure("MotorDrive.swift: expected two TIM1 (AF1) pins, found \(pwm.count)") }
        var signals = ["PWM_A": "P" + pwm[0][0].uppercased() + pwm[0][1], "PWM_B": "P" + pwm[1][0].uppercased() + pwm[1][1]]
        for row in try captures(#"GPIO\.([a-d])\.alternate\(pin: (\d+), af: 7(, pullUp: true)?\)"#, in: usart) {
            signals[row[2].isEmpty ? "UART_TX" : "UART_RX"] = "P" + row[0].uppercased() + row[1]
        }
        let limits = try captures(#"Limits\(ratedMillivolts: (\d+), supplyMillivolts: (\d+)"#, in: board)
        guard limits.count == 2, board.range(of: "#if MOTOR_LRA\n    static let limits") != nil else {
            throw Failure("Board.swift: expected Board.limits for the LRA, then the ERM")
        }
        func percent(_ row: [String]) -> Int { Int((Double(row[0])! / Double(row[1])! * 100).rounded()) }
        return FirmwarePins(signals: signals, ceilings: ["lra": percent(limits[0]), "erm": percent(limits[1]), "erm-hbridge": percent(limits[1])])
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A board's netlist.json: parts with pins (and the MCU's port names), nets per build.
struct Netlist {
    let builds: [String]
    let ports: [String: String]            // U1 pin -> MCU port ("D9" -> "PB1")
    let nets: [String: [String: Set<String>]]  // build -> net -> {"R1.1", ...}

    init(path: String) throws {
        let json = try JSONSerialization.jsonObject(with: Data(try repoText(path).utf8)) as! [String: Any]
        builds = json["builds"] as! [String]
        var ports: [String: String] = [:]
        for part in json["parts"] as! [[String: Any]] where part["ref"] as? String == "U1" {
            for pin in part["pins"] as! [[String: Any]] { if let port = pin["port"] as? String { ports[pin["pin"] as! String] = port } }
        }
        self.ports = ports
        var nets: [String: [String: Set<String>]] = [:]
        for net in json["nets"] as! [[String: Any]] {
            for build in (net["builds"] as? [String]) ?? builds {
                nets[build, default: [:]][net["name"] as! String, default: []].formUnion(net["pins"] as! [String])
            }
        }
        self.nets = nets
    }

    /// The U1 pin wired to an MCU port.
    func boardPin(port: String) -> String? { ports.first { $0.value == port }?.key }

    /// The net holding a pin in a build, if any.
    func net(of pin: String, build: String) -> String? { nets[build]?.first { $0.value.contains(pin) }?.key }
}

/// A README table after `<!-- marker -->`: its body rows as cells.
func table(after marker: String, in text: String) -> [[String]]? {
    guard let start = text.range(of: "<!-- \(marker) -->") else { return nil }
    var rows: [[String]] = []
    for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
        guard line.hasPrefix("|") else { if rows.isEmpty { continue } else { break } }
        rows.append(line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) })
    }
    return Array(rows.dropFirst(2))  // header and separator
}
