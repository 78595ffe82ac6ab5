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
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-C", avrDir.path, target]
        let out = Pipe()
        make.standardOutput = out
        make.standardError = out
        try make.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        make.waitUntilExit()
        print(text, terminator: "")
        return (make.terminationStatus, text)
    }

    /// Every golden vector of protocol.md decodes through link.c (COBS, CRC, header), host examples pass
    /// proto.c's checks with their field values, and reply.c encodes the board examples byte for byte.
    @Test func protocolGoldenVectorsThroughTheCCodec() throws {
        let (status, text) = try make("golden-test")
        #expect(status == 0, "\(text)")
        #expect(text.contains("golden host test: all passed"))
    }

    @Test func theUniqueIdFromSignatureRows() throws {
        let (status, text) = try make("host-test")
        #expect(status == 0, "\(text)")
        #expect(text.contains("uid host test: all passed"))
    }
}
