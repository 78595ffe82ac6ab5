// The committed C header hardware/avr/src/wire_gen.h against what MotorWire generates (WireHeader), and no
// hand-copied protocol constant left elsewhere in the firmware. (MotorWire against protocol.md's tables:
// ProtocolDocTests.) MOTORBREATH_WRITE_WIRE_HEADER=1 rewrites the header instead of failing.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

@Suite(.tags(.emulated), .timeLimit(.minutes(1))) struct WireHeaderTests {
    @Test func theCommittedHeaderIsWhatMotorWireGenerates() throws {
        let url = repositoryRoot.appendingPathComponent(WireHeader.path)
        if ProcessInfo.processInfo.environment["MOTORBREATH_WRITE_WIRE_HEADER"] == "1" {
            try WireHeader.text.write(to: url, atomically: true, encoding: .utf8)
            print("wrote \(WireHeader.path)")
        }
        let committed = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        let have = Dictionary(WireHeader.defines(in: committed), uniquingKeysWith: { a, _ in a })
        let want = WireHeader.constants
        for k in want {
            if let v = have[k.name] {
                #expect(v == k.value, "\(WireHeader.path): \(k.name) is \(v), MotorWire says \(k.value)")
            } else {
                #expect(Bool(false), "\(WireHeader.path): \(k.name) missing, MotorWire says \(k.value)")
            }
        }
        let extra = Set(have.keys).subtracting(want.map(\.name)).subtracting(["WIRE_GEN_H"])
        #expect(extra.isEmpty, "\(WireHeader.path): \(extra.sorted()) not from MotorWire")
        // Comments and order too: the file is exactly the generator's output.
        #expect(committed == WireHeader.text, "\(WireHeader.path) differs from the generator's output: regenerate it")
    }

    /// A generated name defined again anywhere else in the firmware (a hand copy that could drift).
    @Test func noOtherFirmwareFileDefinesAGeneratedConstant() throws {
        let src = avrDir.appendingPathComponent("src")
        let names = WireHeader.constants.map(\.name)
        for file in try FileManager.default.contentsOfDirectory(atPath: src.path).sorted()
        where (file.hasSuffix(".h") || file.hasSuffix(".c")) && file != "wire_gen.h" {
            let text = try String(contentsOf: src.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let t = line.trimmingCharacters(in: .whitespaces)
                for n in names where t.hasPrefix("#define \(n) ") || t.contains("{ \(n) =") || t.contains(" \(n) = ") {
                    #expect(Bool(false), "src/\(file) defines \(n) itself: use wire_gen.h's")
                }
            }
        }
    }

    @Test func cNamesFollowTheSwiftNames() {
        #expect(WireHeader.cName("clockRequest") == "CLOCK_REQUEST")
        #expect(WireHeader.cName("capLRACarrier") == "CAP_LRA_CARRIER")
        #expect(WireHeader.cName("u16") == "U16")
        #expect(WireHeader.cName("badConfig") == "BAD_CONFIG")
    }
}
