// A calibration profile saved under the id the Arduino firmware reported before it took in the die's X/Y
// position (hardware/REVIEW.md, A3) is still used by `motorbreath play`: the CLI maps the old id onto the
// board's new one and says so. The old id here is made from the simulated board's new id by the rule in
// protocol.md (INFO), as an old firmware on that chip would have reported it.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(5))) struct AVRProfileTests {
    @Test func aProfileUnderTheOldIdIsUsed() throws {
        let board = try AVRBoard()
        defer { board.remove() }
        let info = try jsonObject(try runMotorbreath(["info", "--port", board.port, "--baud", "\(avrBaud)", "--json"], timeout: 60).stdout)
        let newID = try #require((info["unique_id"] as? String).flatMap { UInt64($0, radix: 16) })
        // Old id bytes: lot[0..5], reserved, wafer. Take lot[5] = 0 (so lot[0] is the new byte 0) and any
        // reserved byte; wafer is the new byte 5.
        var old: UInt64 = newID & 0xFF_FFFF_FFFF  // new bytes 0-4: lot[0] ^ swap(0), lot[1...4]
        old |= 0xAB << 48 | (newID >> 40 & 0xFF) << 56
        let hex = String(old, radix: 16), name = String(repeating: "0", count: 16 - hex.count) + hex + "-wrist"
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("mb-avr-profile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let profiles = config.appendingPathComponent("motorbreath/profiles")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        let json = """
            {"version": 1, "board": "\(name.dropLast(6))", "board_name": "motorbreath-avr-erm", "spot": "wrist", "motor": "erm",
             "start_threshold": 0.3, "stop_threshold": 0.2, "felt_threshold": 0.25, "comfort_max": 0.9, "lag_s": 0.06,
             "lag_source": "reference", "staircases": {}, "created": ""}
            """
        try Data(json.utf8).write(to: profiles.appendingPathComponent(name + ".json"))
        let r = try runMotorbreath(["--port", board.port, "--baud", "\(avrBaud)", "--pattern", "1-0-1", "--minutes", "0.05",
                                    "--no-warmup", "--quiet"], timeout: 90, environment: ["XDG_CONFIG_HOME": config.path])
        print("AVR profile under the old id \(name) (new id \(String(newID, radix: 16))): exit \(r.status); \(r.stderr)")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("using profile \(name)"), "\(r.stderr)")
    }
}
