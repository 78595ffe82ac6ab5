// Profiles saved under an Arduino board's old unique id stay usable: the old id (signature-row bytes
// 0x0E-0x15) matches the new one (lot folded, wafer, die Y, die X) of the same chip, and no other. The
// ids are protocol.md's example, which `make -C hardware/avr host-test` checks the firmware against.
// SPDX-License-Identifier: Apache-2.0

import Calibration
import Foundation
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LegacyBoardIDTests {
    // Signature row 0x0E-0x17: lot "X73414", reserved 0x1E, wafer 12, die Y 29, die X 32.
    static let oldID: UInt64 = 0x0C1E_3431_3433_3758  // bytes 58 37 33 34 31 34 1E 0C
    static let newID: UInt64 = 0x201D_0C31_3433_371B  // bytes 1B 37 33 34 31 0C 1D 20

    @Test func theOldIdMatchesTheSameChipOnly() {
        #expect(LegacyBoardID.avrMatches(oldID: Self.oldID, newID: Self.newID))
        // Another die of that wafer reported the same old id, and so shared its profile: it still may.
        #expect(LegacyBoardID.avrMatches(oldID: Self.oldID, newID: 0x1D20_0C31_3433_371B))
        #expect(!LegacyBoardID.avrMatches(oldID: Self.oldID, newID: 0x201D_0D31_3433_371B))  // another wafer
        #expect(!LegacyBoardID.avrMatches(oldID: Self.oldID, newID: 0x201D_0C31_3433_381B))  // another lot
        #expect(!LegacyBoardID.avrMatches(oldID: Self.oldID, newID: 0x201D_0C31_3433_371C))  // lot's fold
        #expect(!LegacyBoardID.avrMatches(oldID: Self.newID, newID: Self.newID))  // a profile under the new id is not legacy
    }

    @Test func theStoreFindsTheOldProfileForItsSpot() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-legacy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let profiles = dir.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        for name in ["0c1e343134333758-wrist", "0c1e343134333758-chest", "0d1e343134333758-wrist", "notanid-wrist"] {
            _ = FileManager.default.createFile(atPath: profiles.appendingPathComponent(name + ".json").path, contents: Data("{}".utf8))
        }
        let store = ConfigStore(directory: dir)
        #expect(store.legacyAVRProfileNames(newID: Self.newID, spot: "wrist") == ["0c1e343134333758-wrist"])
        #expect(store.legacyAVRProfileNames(newID: Self.newID, spot: "chest") == ["0c1e343134333758-chest"])
        #expect(store.legacyAVRProfileNames(newID: Self.newID, spot: "ankle").isEmpty)
    }
}
