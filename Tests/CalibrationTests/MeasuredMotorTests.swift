// A motor measured through the accelerometer saved into a board's profile: the motor's part replaced, the
// person's felt range kept, the renderer's model made from it; a spot never calibrated gets the whole range.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Calibration
import Foundation
@testable import MotorPhysics
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct MeasuredMotorTests {
    @Test func aMeasuredMotorReplacesTheMotorAndKeepsTheFeltRange() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("measured-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = ConfigStore(directory: dir)
        let m = IdentifiedMotor(kind: .erm, riseTau: 0.112, fallTau: 0.115, brakeTau: 0.02, startThreshold: 0.15,
                                stopThreshold: 0.03, fullScaleG: 1, motorSeconds: 28, samples: [:])
        let old = CalibrationProfile(board: "53494d424f415244", boardName: "sim", spot: "wrist", motor: "erm", startThreshold: 0.2,
                                     stopThreshold: 0.05, feltThreshold: 0.3, comfortMax: 0.8, lagSeconds: 0.08, lagSource: "spin-up task")
        _ = try store.save(old)
        let (p, _) = try MeasuredMotorStore.save(m, uniqueID: 0x5349_4D42_4F41_5244, boardName: "sim", spot: "wrist", store: store, created: "now")
        #expect(p.feltThreshold == 0.3 && p.comfortMax == 0.8)
        #expect(p.lagSource == "accelerometer")
        #expect(p.motorProfile == .erm(ERMModel(riseTau: 0.112, fallTau: 0.115, brakeTau: 0.02, startThreshold: 0.15, stopThreshold: 0.03)))
        #expect(try store.load(p.name) == p, "fall_s and brake_s are read back")
        let (fresh, _) = try MeasuredMotorStore.save(m, uniqueID: 0x5349_4D42_4F41_5244, boardName: "sim", spot: "palm", store: store, created: "now")
        #expect(fresh.feltThreshold == 0 && fresh.comfortMax == 1 && fresh.lagSeconds == 0.112)
    }

    /// A profile saved before the accelerometer (no fall_s, brake_s) keeps its model: one lag both ways.
    @Test func anOlderProfileKeepsOneLag() throws {
        let json = #"{"version":1,"board":"53494d424f415244","board_name":"sim","spot":"wrist","motor":"erm","start_threshold":0.15,"stop_threshold":0.05,"felt_threshold":0.2,"comfort_max":0.9,"lag_s":0.09,"lag_source":"reference","staircases":{},"created":""}"#
        let p = try JSONDecoder().decode(CalibrationProfile.self, from: Data(json.utf8))
        #expect(p.fallSeconds == nil && p.brakeSeconds == nil)
        #expect(p.motorProfile == .erm(ERMModel(riseTau: 0.09, fallTau: 0.09, startThreshold: 0.15, stopThreshold: 0.05)))
    }
}
