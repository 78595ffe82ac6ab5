// FTDI latency-timer advice and the adapter's profile against a fake sysfs, and the ModemManager hint.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SerialLink
import Testing
import TestSupport

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct USBSerialTuningTests {
    @Test func sixteenMillisecondTimerGetsTheExactFixAndCanBeLowered() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("bus/usb-serial/devices/ttyUSB3")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "16\n".write(to: dir.appendingPathComponent("latency_timer"), atomically: true, encoding: .utf8)
        USBSerialTuning.sysfsRoot = root.path
        defer { USBSerialTuning.sysfsRoot = "/sys" }
        #expect(USBSerialTuning.latencyTimerMs(forPort: "/dev/ttyUSB3") == 16)
        let advice = try #require(USBSerialTuning.advice(forPort: "/dev/ttyUSB3"))
        #expect(advice.contains("16 ms") && advice.contains("echo 1 | sudo tee \(dir.path)/latency_timer"))
        #expect(USBSerialTuning.setLowLatency(forPort: "/dev/ttyUSB3"))
        #expect(USBSerialTuning.latencyTimerMs(forPort: "/dev/ttyUSB3") == 1)
        #expect(USBSerialTuning.advice(forPort: "/dev/ttyUSB3") == nil)
        #expect(USBSerialTuning.latencyTimerMs(forPort: "/dev/ttyACM0") == nil)
    }

    @Test func modemManagerHintOnlyForACM() {
        #expect(USBSerialTuning.modemManagerHint(forPort: "/dev/ttyACM0")?.contains("ModemManager") == true)
        #expect(USBSerialTuning.modemManagerHint(forPort: "/dev/ttyUSB0") == nil)
    }

    /// The adapter is told by the USB ids of the device above the tty (a symlink into the device tree, as
    /// in /sys/class/tty), FTDI's with its latency timer; ttyACM is native USB; anything else is unknown.
    @Test func theProfileComesFromTheUSBIDs() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("sysfs-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: root) }
        func device(_ tty: String, _ vendor: String, _ product: String) throws {
            let usb = root.appendingPathComponent("devices/usb1/1-\(tty)")
            let port = usb.appendingPathComponent("1-1:1.0/\(tty)")
            try fm.createDirectory(at: port, withIntermediateDirectories: true)
            try "\(vendor)\n".write(to: usb.appendingPathComponent("idVendor"), atomically: true, encoding: .utf8)
            try "\(product)\n".write(to: usb.appendingPathComponent("idProduct"), atomically: true, encoding: .utf8)
            let cls = root.appendingPathComponent("class/tty/\(tty)")
            try fm.createDirectory(at: cls, withIntermediateDirectories: true)
            try fm.createSymbolicLink(at: cls.appendingPathComponent("device"), withDestinationURL: port)
        }
        try device("ttyUSB3", "0403", "6001")
        try device("ttyUSB4", "1a86", "7523")
        try device("ttyUSB5", "10c4", "EA60")
        try device("ttyUSB6", "067b", "2303")
        let timer = root.appendingPathComponent("bus/usb-serial/devices/ttyUSB3")
        try fm.createDirectory(at: timer, withIntermediateDirectories: true)
        try "2\n".write(to: timer.appendingPathComponent("latency_timer"), atomically: true, encoding: .utf8)
        USBSerialTuning.sysfsRoot = root.path
        defer { USBSerialTuning.sysfsRoot = "/sys" }
        #expect(USBSerialTuning.profile(forPort: "/dev/ttyUSB3", baud: 250_000) == LinkProfile(adapter: .ftdi, holdMs: 2, baud: 250_000))
        #expect(USBSerialTuning.profile(forPort: "/dev/ttyUSB4", baud: 115_200) == LinkProfile(adapter: .ch340))
        #expect(USBSerialTuning.profile(forPort: "/dev/ttyUSB5", baud: 115_200) == LinkProfile(adapter: .cp2102))
        #expect(USBSerialTuning.profile(forPort: "/dev/ttyUSB6", baud: 115_200) == nil)  // a PL2303: not modelled
        #expect(USBSerialTuning.profile(forPort: "/dev/ttyACM0", baud: 115_200) == LinkProfile(adapter: .cdc))
        #expect(USBSerialTuning.profile(forPort: "/dev/pts/7", baud: 115_200) == nil)
    }
}
