// doctor on faked machines: each condition that keeps a board's port from working, made under a scratch
// root one at a time, is found with its fix; a clean machine has nothing to fix; a real process holding a
// real pty is named.
// SPDX-License-Identifier: Apache-2.0
import Doctor
import Foundation
import Glibc
import SerialLink
import Testing
import TestSupport

/// A scratch root standing for `/`: a machine where a board on /dev/ttyUSB0 works for alice (uid 1000).
struct FakeMachine {
    let root: String
    var machine: Machine

    init() throws {
        root = NSTemporaryDirectory() + "motorbreath-doctor-" + UUID().uuidString
        machine = Machine(root: root, userName: "alice", uid: 1000, groups: [1000, 20], pid: 1)
        try write("/etc/group", "root:x:0:\ndialout:x:20:alice\nalice:x:1000:\n")
        try write("/dev/ttyUSB0", "")
        chown(root + "/dev/ttyUSB0", 0, 20)
        chmod(root + "/dev/ttyUSB0", 0o660)
        try write("/etc/udev/rules.d/70-motorbreath.rules", "# ours\n")
        try write("/sys/bus/usb-serial/devices/ttyUSB0/latency_timer", "1\n")
        try process(300, "bash")
    }

    func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func remove(_ path: String) throws { try FileManager.default.removeItem(atPath: root + path) }

    /// A process `pid` named `name` (its /proc/PID/comm).
    func process(_ pid: Int, _ name: String) throws { try write("/proc/\(pid)/comm", name + "\n") }

    var findings: [Finding] { Doctor(machine: machine).examine() }

    func clean() { try? FileManager.default.removeItem(atPath: root) }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct DoctorTests {
    @Test func aMachineWhereTheBoardWorksHasNothingToFix() throws {
        let m = try FakeMachine()
        defer { m.clean() }
        #expect(m.findings == [])
        #expect(Doctor(machine: m.machine).presentPorts == ["/dev/ttyUSB0"])
    }

    @Test func aUserOutsideThePortsGroupIsToldWhichGroupToJoin() throws {
        var m = try FakeMachine()
        defer { m.clean() }
        try m.write("/etc/group", "dialout:x:20:\n")
        m.machine.groups = [1000]
        #expect(m.findings.map(\.check) == ["port-access"])
        #expect(m.findings.first?.fix.hasPrefix("sudo usermod -aG dialout alice, then log out and in") == true)
    }

    @Test func aGroupJoinedSinceLoginAsksForANewLogin() throws {
        var m = try FakeMachine()
        defer { m.clean() }
        m.machine.groups = [1000]  // /etc/group has alice in dialout; this login does not
        #expect(m.findings.map(\.check) == ["port-access"])
        #expect(m.findings.first?.fix == "log out and in again")
    }

    @Test func withNoPortPluggedInTheSerialGroupIsChecked() throws {
        var m = try FakeMachine()
        defer { m.clean() }
        try m.remove("/dev/ttyUSB0")
        try m.remove("/etc/udev/rules.d/70-motorbreath.rules")
        try m.write("/etc/group", "uucp:x:14:\n")  // Arch names it uucp
        m.machine.groups = [1000]
        #expect(m.findings.map(\.check) == ["udev-rules", "serial-group"])
        #expect(m.findings.last?.fix.hasPrefix("sudo usermod -aG uucp alice") == true)
    }

    @Test func brlttyRunningOrItsRulesClaimingTheAdapterAreFound() throws {
        let m = try FakeMachine()
        defer { m.clean() }
        try m.process(77, "brltty")
        #expect(m.findings.map(\.check) == ["brltty"])
        #expect(m.findings.first?.problem.contains("pid 77") == true)
        try m.remove("/proc/77")
        try m.write("/usr/lib/udev/rules.d/85-brltty.rules", "ENV{PRODUCT}==\"1a86/7523/*\", ENV{BRLTTY_BRAILLE_DRIVER}=\"bm\"\n")
        #expect(m.findings.map(\.check) == ["brltty"])
        try FileManager.default.createDirectory(atPath: m.root + "/etc/systemd/system", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: m.root + "/etc/systemd/system/brltty-udev.service", withDestinationPath: "/dev/null")
        #expect(m.findings == [], "a masked brltty-udev service claims nothing")
    }

    @Test func modemManagerMattersOnlyWithoutTheRules() throws {
        let m = try FakeMachine()
        defer { m.clean() }
        try m.process(90, "ModemManager")
        #expect(m.findings == [], "the rules keep ModemManager off the boards' ports")
        try m.remove("/etc/udev/rules.d/70-motorbreath.rules")
        #expect(m.findings.map(\.check) == ["udev-rules", "modemmanager"])
        try m.write("/usr/lib/udev/rules.d/70-motorbreath.rules", "# a package's\n")
        #expect(m.findings == [])
    }

    @Test func anFTDILatencyTimerAt16msIsFound() throws {
        let m = try FakeMachine()
        defer { m.clean() }
        try m.write("/sys/bus/usb-serial/devices/ttyUSB0/latency_timer", "16\n")
        #expect(m.findings.map(\.check) == ["ftdi-latency"])
        #expect(m.findings.first?.fix == "echo 1 | sudo tee /sys/bus/usb-serial/devices/ttyUSB0/latency_timer (the udev rules set it at every plug)")
    }

    /// The oracle is the kernel: a real child process holding a real pty open, found through the real /proc.
    @Test(.timeLimit(.minutes(1))) func aRealProcessHoldingARealPtyIsNamed() throws {
        let terminal = try PseudoTerminal()  // this process holds the master: the board's side, not counted
        defer { terminal.close() }
        let pty = terminal.slavePath
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "exec 3<>\(pty); echo ready; exec sleep 30"]
        let out = Pipe()
        child.standardOutput = out
        try child.run()
        defer { kill(child.processIdentifier, SIGKILL); child.waitUntilExit() }
        _ = out.fileHandleForReading.availableData  // "ready": the pty is open in the child
        let found = Doctor(machine: .current).examine(ports: [pty]).filter { $0.check == "port-held" }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.fix.hasSuffix("kill \(child.processIdentifier)") == true, "\(found)")
    }
}
