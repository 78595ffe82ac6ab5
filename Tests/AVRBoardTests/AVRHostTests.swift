// The AVR firmware's pure C parts, built with the host's cc and run (`make -C hardware/avr host-test`):
// the unique id's construction from signature-row images (simavr does not model the signature row), and
// protocol.md's golden vectors through the firmware's codec, payload checks and reply layouts.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

@Suite(.tags(.emulated), .timeLimit(.minutes(2))) struct AVRHostTests {
    /// `make -s -C hardware/avr TARGET`: its exit status and output.
    func make(_ target: String) throws -> (status: Int32, text: String) {
        try run("/usr/bin/env", ["make", "-s", "-C", avrDir.path, target])
    }

    /// A program's exit status and output (standard output and error together), printed too.
    func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print(text, terminator: "")
        return (process.terminationStatus, text)
    }

    /// Every golden vector of protocol.md decodes through link.c (COBS, CRC, header), host examples pass
    /// proto.c's checks with their field values, and reply.c encodes the board examples byte for byte.
    @Test func protocolGoldenVectorsThroughTheCCodec() throws {
        let (status, text) = try make("golden-test")
        #expect(status == 0, "\(text)")
        #expect(text.contains("golden host test: all passed"))
    }

    /// A maker with avr-gcc and avr-libc but not simavr builds the firmware: `make` says the harness is
    /// skipped and exits 0. simavr's headers are hidden in a mount namespace of this test's own (a tmpfs over
    /// /usr/include/simavr), so the machine's packages stay as they are.
    @Test(.enabled(if: getuid() == 0, "hiding simavr's headers needs a mount namespace: run as root, as CI does"))
    func theFirmwareBuildsWithoutSimavr() throws {
        let build = FileManager.default.temporaryDirectory.appendingPathComponent("avr-nosim-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: build) }
        let (status, text) = try run("/usr/bin/unshare", ["-m", "sh", "-c", "mount -t tmpfs none /usr/include/simavr && make -s -C \"$1\" BUILD=\"$2\"",
                                                          "sh", avrDir.path, build])
        #expect(status == 0, "\(text)")
        #expect(text.contains("the firmware is built, the simulator harness is not"), "\(text)")
        for variant in ["erm", "erm-hbridge", "lra"] {
            #expect(FileManager.default.fileExists(atPath: "\(build)/\(variant)/motorbreath-avr.hex"), "no \(variant) hex: \(text)")
        }
    }

    @Test func theUniqueIdFromSignatureRows() throws {
        let (status, text) = try make("host-test")
        #expect(status == 0, "\(text)")
        #expect(text.contains("uid host test: all passed"))
    }
}
