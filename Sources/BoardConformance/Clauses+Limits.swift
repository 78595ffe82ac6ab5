// Conformance clauses for the optional drive ceiling (protocol.md section 4, LIMITS; INFO capability
// bit 2): a board with it answers LIMITS_REQ and holds the ceiling once the overdrive budget is spent;
// a board without it answers LIMITS_REQ as any unknown type.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire

extension Conformance {
    /// The board's drive ceiling (LIMITS), or nil for a board without one.
    static func ceilingLevel(_ rig: Rig) throws -> Int16? {
        guard rig.info.capabilities & Info.capLimits != 0 else { return nil }
        for case .limits(let l) in try rig.exchange(.limitsRequest) { return Int16(min(l.ceilingLevel, 32767)) }
        throw ClauseFailure(description: "LIMITS_REQ to a board with capability bit 2: expected LIMITS, got none")
    }

    static let limitsClauses: [Clause] = [
        Clause("limits.answer", "4", "LIMITS_REQ: LIMITS from a board with capability bit 2, NAK unknown_type otherwise",
               since: .r1_1) { rig in
            let got = try rig.exchange(.limitsRequest)
            guard rig.info.capabilities & Info.capLimits != 0 else {
                try require(got.naks.count == 1 && got.naks[0].code == .unknownType && got.naks[0].refType == 0x08,
                            "LIMITS_REQ to a board without capability bit 2: expected one NAK unknown_type, got \(got.brief)")
                return .pass("NAK unknown_type (no drive ceiling advertised)")
            }
            let limits = got.compactMap { if case .limits(let l) = $0 { return l } else { return nil } }
            try require(limits.count == 1, "LIMITS_REQ: expected one LIMITS, got \(got.brief)")
            let l = limits[0]
            try require(l.ceilingLevel <= 32767 && l.availableMs <= l.overdriveMs,
                        "LIMITS: expected ceiling <= 32767 and available_ms <= overdrive_ms, got ceiling \(l.ceilingLevel), \(l.availableMs) of \(l.overdriveMs) ms available")
            return .pass("ceiling \(l.ceilingLevel), overdrive \(l.overdriveMs) ms, recovery \(l.recoveryMs) ms")
        },
        // Any board that advertises a ceiling is held to it, whatever revision it announces.
        Clause("limits.held", "4", "full duty for longer than the overdrive budget: the output drops to the ceiling (optional: capability bit 2)") { rig in
            guard rig.info.capabilities & Info.capLimits != 0 else { return .notApplicable("the board has no drive ceiling") }
            let got = try rig.exchange(.limitsRequest)
            guard let l = got.compactMap({ m -> Limits? in if case .limits(let l) = m { return l } else { return nil } }).first else {
                throw ClauseFailure(description: "LIMITS_REQ: expected LIMITS, got \(got.brief)")
            }
            var output: Int16 = .max
            _ = try play(rig, [UInt16](repeating: 255, count: min(Int(rig.info.bufferCapacity), 200)),
                         reportEvery: 1000, frames: 0) { rig, _ in
                // The whole budget and 100 ms more after the first frame (the play starts 150 ms ahead).
                let waited = try rig.keepAlive(ms: 150 + Int(l.overdriveMs) + 100)
                output = try rig.status().output
                return waited
            }
            try require(output.magnitude <= l.ceilingLevel,
                        "full duty for \(l.overdriveMs) ms and 100 ms more: expected output at most ±\(l.ceilingLevel) (the ceiling), got \(output)")
            return .pass("output \(output) at the ceiling \(l.ceilingLevel) after the \(l.overdriveMs) ms budget")
        },
    ]
}
