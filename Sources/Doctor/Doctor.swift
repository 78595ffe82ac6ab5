// `motorbreath doctor`: what stands between this machine and a motor board, each with its one-line fix.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import SerialLink

/// Looks at a machine for what keeps a board's serial port from working: no permission to open it (and the
/// group to join, or a login to renew), brltty or ModemManager claiming USB-serial adapters, the udev rules
/// not installed, an FTDI adapter's 16 ms latency timer, the port held open by another program. Reads files
/// only (`/dev`, `/proc`, `/sys`, `/etc/group`, udev's folders): it changes nothing, and a test fakes each
/// condition under a scratch root. The serial library is not a check: the program does not start without it.
///
///     let findings = Doctor(machine: .current).examine(ports: ["/dev/ttyUSB0"])
///     // [] when nothing needs fixing
public struct Doctor: Sendable {
    public var machine: Machine
    /// Where the rules file is found to install it (the repository's copy; a package's is in /usr/lib/udev).
    public var rulesSource = "hardware/udev/70-motorbreath.rules"
    static let rulesName = "70-motorbreath.rules"
    static let udevFolders = ["/etc/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"]

    public init(machine: Machine) { self.machine = machine }

    /// The serial ports present: `/dev/ttyUSB*` and `/dev/ttyACM*`.
    public var presentPorts: [String] {
        machine.list("/dev").filter { $0.hasPrefix("ttyUSB") || $0.hasPrefix("ttyACM") }.map { "/dev/" + $0 }
    }

    /// The report of `ports` (none given: those present), as `motorbreath doctor` prints it.
    public func report(ports: [String] = []) -> DoctorReport {
        let ports = ports.isEmpty ? presentPorts : ports
        return DoctorReport(ports: ports, findings: examine(ports: ports))
    }

    /// Everything found, in the order a maker fixes it. `ports`: the ports to check (default: those present).
    public func examine(ports: [String]? = nil) -> [Finding] {
        let ports = ports ?? presentPorts
        var found: [Finding] = []
        found += rulesFindings()
        found += brlttyFindings()
        found += modemManagerFindings()
        found += ports.isEmpty ? groupFindings() : ports.compactMap(accessFinding)
        found += latencyFindings()
        found += ports.flatMap(holderFindings)
        return found
    }

    var rulesInstalled: Bool {
        Doctor.udevFolders.contains { machine.exists($0 + "/" + Doctor.rulesName) }
    }

    var installRules: String {
        "sudo install -m 644 \(rulesSource) /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger"
    }

    func rulesFindings() -> [Finding] {
        if rulesInstalled { return [] }
        return [Finding(check: "udev-rules", problem: "motorbreath's udev rules are not installed (port access at the seat, ModemManager kept off, FTDI at 1 ms)",
                        fix: installRules)]
    }

    func brlttyFindings() -> [Finding] {
        let fix = "sudo apt remove brltty (or, to keep a braille display: sudo systemctl mask brltty-udev.service)"
        if let p = machine.processes.first(where: { $0.name == "brltty" }) {
            return [Finding(check: "brltty", problem: "brltty (pid \(p.pid)) is running: it claims CH340 and CP2102 adapters as braille displays and the port vanishes",
                            fix: fix)]
        }
        let masked = (try? FileManager.default.destinationOfSymbolicLink(atPath: machine.at("/etc/systemd/system/brltty-udev.service"))) == "/dev/null"
        let claims = Doctor.udevFolders.contains { (machine.read($0 + "/85-brltty.rules") ?? "").contains("1a86") }
        guard claims && !masked else { return [] }
        return [Finding(check: "brltty", problem: "brltty's udev rules claim CH340 and CP2102 adapters as braille displays: the port vanishes a second after it appears",
                        fix: fix)]
    }

    func modemManagerFindings() -> [Finding] {
        guard !rulesInstalled, let p = machine.processes.first(where: { $0.name == "ModemManager" }) else { return [] }
        return [Finding(check: "modemmanager", problem: "ModemManager (pid \(p.pid)) probes new serial ports with AT commands (and resets an Uno)",
                        fix: installRules + " (the rules set ID_MM_DEVICE_IGNORE), or: sudo systemctl stop ModemManager")]
    }

    /// The serial group of this distribution (`dialout`, Arch's `uucp`), as /etc/group has it.
    var serialGroup: (name: String, gid: UInt32, members: [String])? {
        machine.groupFile.first { $0.name == "dialout" } ?? machine.groupFile.first { $0.name == "uucp" }
    }

    /// With no port plugged in: would one be usable? Not when the rules (uaccess) are missing and the user is
    /// not in the serial group.
    func groupFindings() -> [Finding] {
        guard machine.uid != 0, !rulesInstalled, let g = serialGroup, !machine.groups.contains(g.gid) else { return [] }
        if g.members.contains(machine.userName) {
            return [Finding(check: "serial-group", problem: "you joined \(g.name) after this login began: serial ports stay closed to you until you log in again",
                            fix: "log out and in again")]
        }
        return [Finding(check: "serial-group", problem: "serial ports belong to the group \(g.name), which \(machine.userName) is not in",
                        fix: "sudo usermod -aG \(g.name) \(machine.userName), then log out and in (or install the udev rules: \(installRules))")]
    }

    /// Whether the user can read and write `port`; the finding says why not and what to do.
    func accessFinding(_ port: String) -> Finding? {
        var st = stat()
        guard stat(machine.at(port), &st) == 0 else {
            return Finding(check: "port-access", problem: "\(port) is not there", fix: "plug the board in, or name its port: motorbreath ports")
        }
        if machine.uid == 0 || mayOpen(st, port) { return nil }
        let group = machine.groupFile.first { $0.gid == UInt32(st.st_gid) }
        let name = group?.name ?? "\(st.st_gid)"
        if let group, group.members.contains(machine.userName) {
            return Finding(check: "port-access", problem: "\(port) belongs to \(name), which you joined after this login began",
                           fix: "log out and in again")
        }
        return Finding(check: "port-access", problem: "\(port) belongs to the group \(name) (mode \(String(st.st_mode & 0o777, radix: 8))) and \(machine.userName) may not open it",
                       fix: "sudo usermod -aG \(name) \(machine.userName), then log out and in (or install the udev rules: \(installRules))")
    }

    /// Read and write permission: access(2) on the real machine (it counts uaccess's ACLs), the mode bits
    /// for the asking user under a scratch root.
    func mayOpen(_ st: stat, _ port: String) -> Bool {
        if machine.root == "/" && machine.uid == UInt32(getuid()) { return access(port, R_OK | W_OK) == 0 }
        let mode = UInt32(st.st_mode)
        let bits: UInt32 = UInt32(st.st_uid) == machine.uid ? (mode >> 6) & 7
            : machine.groups.contains(UInt32(st.st_gid)) ? (mode >> 3) & 7 : mode & 7
        return bits & 6 == 6
    }

    func latencyFindings() -> [Finding] {
        let folder = "/sys/bus/usb-serial/devices"
        return machine.list(folder).compactMap { tty in
            guard let text = machine.read("\(folder)/\(tty)/latency_timer"),
                  let ms = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), ms > 1 else { return nil }
            return Finding(check: "ftdi-latency", problem: "\(tty) (an FTDI adapter) holds received bytes up to \(ms) ms (latency_timer \(ms))",
                           fix: "echo 1 | sudo tee \(folder)/\(tty)/latency_timer (the udev rules set it at every plug)")
        }
    }

    /// Other programs with `port` open (SerialLink's PortHolders, from /proc: what `play` itself refuses a
    /// port for), named with their fix.
    func holderFindings(_ port: String) -> [Finding] {
        var st = stat()
        guard stat(machine.at(port), &st) == 0 else { return [] }
        return PortHolders.others(of: st).map { p in
            Finding(check: "port-held", problem: "\(port) is open in \(p.program) (pid \(p.pid)): the board answers it, not motorbreath",
                    fix: "quit \(p.program), or: kill \(p.pid)")
        }
    }
}
