// The fault path in QEMU's register-write trace (S3 and S6 of the firmware review): a fault before the
// watchdog runs takes the motor pins from TIM1 and drives them low as outputs (no reliance on the gate
// pull-down), and starts the watchdog so the chip resets (QEMU does not model the IWDG, so the reset
// itself is seen only on silicon: here, its start). And the F4 image, whose clock setup QEMU cannot
// run (RCC reads 0: HSE and PLL never get ready), does not hang on a ready flag: every wait is bounded,
// the crystal is given up for the HSI, and a PLL that locks from neither ends in that fault path.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// GPIO and IWDG addresses (RM0368): MODER, BSRR of ports A and B; IWDG_KR.
let gpioAModer: UInt32 = 0x4002_0000, gpioABSRR: UInt32 = 0x4002_0018
let gpioBModer: UInt32 = 0x4002_0400, gpioBBSRR: UInt32 = 0x4002_0418
let iwdgKR: UInt32 = 0x4000_3000

/// Checks that after the last moment TIM1 had PA8 (and PB14 on an H-bridge build) in alternate-function
/// mode, both were reset low through BSRR and made outputs, and the watchdog was started (0xCCCC) but
/// never configured by the firmware (0x5555: Watchdog.start did not run). `aliveTIM1`: whether the
/// fault came after MotorDrive.start.
func checkFaultPath(_ writes: [(address: UInt32, value: UInt32)], hBridge: Bool, aliveTIM1: Bool) {
    let kr = writes.filter { $0.address == iwdgKR }.map(\.value)
    #expect(kr == [0xCCCC], "IWDG_KR writes \(kr.map { String($0, radix: 16) })")
    guard let start = writes.lastIndex(where: { $0.address == iwdgKR }) else { return }
    let before = writes[..<start]
    func pinPath(moder: UInt32, bsrr: UInt32, pin: UInt32) {
        let shift = pin * 2
        let af = before.lastIndex { $0.address == moder && ($0.value >> shift) & 3 == 0b10 }
        if aliveTIM1 { #expect(af != nil, "pin \(pin): never in alternate-function mode before the fault") }
        let from = af.map { $0 + 1 } ?? before.startIndex
        let after = before[from...]
        let reset = after.firstIndex { $0.address == bsrr && $0.value & (1 << (pin + 16)) != 0 }
        let output = after.lastIndex { $0.address == moder && ($0.value >> shift) & 3 == 0b01 }
        #expect(reset != nil, "pin \(pin): no BSRR reset after TIM1 had it")
        #expect(output != nil, "pin \(pin): not made an output after TIM1 had it")
        if let reset, let output { #expect(reset < output, "pin \(pin): made an output before it was set low") }
    }
    pinPath(moder: gpioAModer, bsrr: gpioABSRR, pin: 8)
    if hBridge { pinPath(moder: gpioBModer, bsrr: gpioBBSRR, pin: 14) }
}

extension EmulatedBoardTests {
    @Test(arguments: ["erm", "erm-hbridge"])
    func aFaultBeforeTheWatchdogDrivesThePinsLowAndResets(motor: String) throws {
        let board = try EmulatedBoard(motor: motor, trace: true, faultAtBoot: true)
        defer { board.stop() }
        var writes: [(address: UInt32, value: UInt32)] = []
        for _ in 0..<100 {
            writes = try board.allWrites()
            if writes.contains(where: { $0.address == iwdgKR }) { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 0.5)  // anything that would follow (a watchdog configured, refreshed)
        writes = try board.allWrites()
        checkFaultPath(writes, hBridge: motor == "erm-hbridge", aliveTIM1: true)
    }

    @Test func theF4ImageNeverHangsOnQemusSilentRCC() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-f4-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/bin/bash")
        build.arguments = [repositoryRoot.appendingPathComponent("hardware/firmware/build.sh").path,
                           "--board", "f4", "--motor", "erm", "--out", dir.path]
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0, "build.sh --board f4 failed")
        let trace = dir.appendingPathComponent("trace.log")
        let qemu = Process()
        qemu.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        qemu.arguments = ["qemu-system-arm", "-M", "netduinoplus2", "-nographic", "-monitor", "none", "-serial", "null",
                          "-kernel", dir.appendingPathComponent("motorbreath.elf").path,
                          "-trace", "memory_region_ops_write", "-D", trace.path]
        qemu.standardInput = FileHandle.nullDevice
        qemu.standardOutput = FileHandle.nullDevice
        qemu.standardError = FileHandle.nullDevice
        try qemu.run()
        defer { if qemu.isRunning { kill(qemu.processIdentifier, SIGKILL) }; qemu.waitUntilExit() }
        var writes: [(address: UInt32, value: UInt32)] = []
        for _ in 0..<150 {  // the bounded waits take well under a second of emulated time
            writes = traceWrites(in: (try? String(contentsOf: trace, encoding: .utf8)) ?? "")
            if writes.contains(where: { $0.address == iwdgKR }) { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 0.5)
        writes = traceWrites(in: (try? String(contentsOf: trace, encoding: .utf8)) ?? "")
        // The clock setup's order (Clocks.swift): HSE switched on, given up (off again), the PLL
        // configured from the HSI (M 16, N 336, P 4, Q 7) and switched on, and off again when it never locks.
        let rccCR = writes.filter { $0.address == 0x4002_3800 }.map(\.value)
        let hseOn = rccCR.firstIndex { $0 & (1 << 16) != 0 }
        #expect(hseOn != nil && rccCR[(hseOn ?? 0)...].contains { $0 & (1 << 16) == 0 }, "RCC_CR writes \(rccCR)")
        let pllcfgr = writes.filter { $0.address == 0x4002_3804 }.map(\.value)
        #expect(!pllcfgr.isEmpty && pllcfgr.allSatisfy { $0 == 0x0701_5410 }, "RCC_PLLCFGR writes \(pllcfgr)")
        // No switch to the PLL (CFGR SW = 0b10) without a lock.
        #expect(!writes.contains { $0.address == 0x4002_3808 && $0.value & 0b11 == 0b10 })
        // The motor pins were never handed to TIM1 (the fault came first): low outputs from reset to fault.
        checkFaultPath(writes, hBridge: false, aliveTIM1: false)
    }
}
