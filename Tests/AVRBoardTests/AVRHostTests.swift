// The AVR firmware's pure C parts, built with the host's cc and run (`make -C hardware/avr host-test`):
// the unique id's construction from signature-row images (simavr does not model the signature row).

import Foundation
import Testing

@Suite(.timeLimit(.minutes(2))) struct AVRHostTests {
    @Test func theUniqueIdFromSignatureRows() throws {
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-C", avrDir.path, "host-test"]
        let out = Pipe()
        make.standardOutput = out
        make.standardError = out
        try make.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        make.waitUntilExit()
        print(text, terminator: "")
        #expect(make.terminationStatus == 0, "\(text)")
        #expect(text.contains("uid host test: all passed"))
    }
}
