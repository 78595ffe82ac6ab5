// The STM32 firmware's vibration sensor in QEMU: netduinoplus2 has SPI1 but nothing on it, so what can be
// tested here is the probe (QEMU's trace of the firmware's register writes: DEVID asked for, nothing set up
// after the 0 it reads) and the host's answer to a board without the sensor. The driver's transfers
// against the data sheet are checked on the host (hardware/firmware/test/adxl345-sequence.sh,
// Adxl345SequenceTests); the sensor end to end runs on the AVR in simavr (AVRVibrationBenchTests).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(5))) struct EmulatedSensorTests {
    /// SPI1's data register as the firmware writes it (Adxl345.swift's `AccelRegs.spi1DR`).
    static let spi1DR: UInt32 = 0x4001_300C

    @Test func theFirmwareProbesSPI1AndBenchVibrationSaysThereIsNoSensor() throws {
        let board = try EmulatedBoard(trace: true)
        defer { board.stop() }
        let r = try runMotorbreath(["bench", "--vibration", "--port", board.port], timeout: 120)
        #expect(r.status == 1, "\(r.stderr)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("motorbreath:") }
        #expect(errors.count == 1 && errors[0].contains("no vibration sensor"), "\(r.stderr)")
        // The probe: a read of register 0 (DEVID: 0x80, then a dummy byte to clock the answer in), and, the
        // answer not being 0xE5, no write of POWER_CTL, DATA_FORMAT, BW_RATE or FIFO_CTL after it.
        let spi = try board.allWrites().filter { $0.address == Self.spi1DR }.map(\.value)
        #expect(spi == [0x80, 0x00], "SPI1 data register writes: \(spi.map { String($0, radix: 16) })")
        let info = try jsonObject(try runMotorbreath(["info", "--port", board.port, "--json"], timeout: 60).stdout)
        #expect((info["capabilities"] as? [String])?.contains("vibration-sensor") == false)
    }
}
