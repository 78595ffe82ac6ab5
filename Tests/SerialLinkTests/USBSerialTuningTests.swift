// FTDI latency-timer advice against a fake sysfs, and the ModemManager hint.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SerialLink
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct USBSerialTuningTests {
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
}
