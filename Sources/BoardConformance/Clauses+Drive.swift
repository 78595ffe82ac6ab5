// Conformance clauses for drive levels (protocol.md section 5): the level a board reports in STATUS
// `output` is the one section 5 makes of the frame playing, in every duty format, and negative levels
// come out only of a board that can reverse and was allowed to. conform sees only the port: a board
// that reports honestly but drives wrongly fails here; one whose reports lie is caught at the pin.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

extension Conformance {
    /// A steady level to play in `format`, 70 % of `top` (the drive ceiling, or full drive): the raw value
    /// to send and the level section 5 makes of it (computed here from the table, not by the board's code).
    static func probe(_ format: DutyFormat, top: Int16) -> (raw: UInt16, level: Int16) {
        let target = Int(top) * 7 / 10
        switch format {
        case .u8:
            let raw = target * 255 / 32767
            return (UInt16(raw), Int16(raw * 32767 / 255))
        case .u16: return (UInt16(target * 2 + 1), Int16(target))
        case .i16: return (UInt16(target), Int16(target))
        }
    }

    /// STATUS while `raw` values play in `format`, sampled 50 ms after the first frame's tick.
    static func playing(_ rig: Rig, _ raw: UInt16, format: DutyFormat, flags: UInt8 = 0) throws -> Status {
        var sample: Status?
        _ = try play(rig, [UInt16](repeating: raw, count: min(Int(rig.info.bufferCapacity), 100)), format: format,
                     reportEvery: 1000, flags: flags, frames: 0) { rig, _ in
            let waited = try rig.keepAlive(ms: 200)  // the play starts 150 ms ahead
            sample = try rig.status()
            return waited
        }
        try rig.stopNow()
        return try requireValue(sample, "a STATUS while playing")
    }

    /// Whether the board makes an LRA carrier, whose polarity flips by itself (STATUS shows ±level).
    static func makesCarrier(_ rig: Rig) -> Bool {
        rig.info.motorKind == .lra && rig.info.capabilities & Info.capLRACarrier != 0
    }

    static let driveClauses: [Clause] = [
        Clause("drive.levels", "5", "STATUS output is the level of the frame playing, for u8, u16 and i16 values") { rig in
            let top = try ceilingLevel(rig) ?? 32767  // below a drive ceiling: no overdrive budget is involved
            var seen: [String] = []
            for format in [DutyFormat.u8, .u16, .i16] {
                let (raw, level) = probe(format, top: top)
                let s = try playing(rig, raw, format: format)
                let carrier = makesCarrier(rig)
                let ok = s.state == .playing && (carrier ? s.output.magnitude == level.magnitude : s.output == level)
                try require(ok, "\(format) frames of raw \(raw): expected STATUS playing, output \(carrier ? "±" : "")\(level) "
                            + "(section 5: \(format == .u8 ? "raw × 32767 / 255" : format == .u16 ? "raw >> 1" : "raw")), "
                            + "got \(s.state), output \(s.output)")
                seen.append("\(format) \(raw) -> \(s.output)")
            }
            return .pass(seen.joined(separator: ", "))
        },
        Clause("drive.reverse", "5", "negative i16 drives in reverse only with the capability and the flag; otherwise output 0") { rig in
            let canReverse = rig.info.capabilities & Info.capReverse != 0
            if canReverse && makesCarrier(rig) { return .notApplicable("an LRA board's carrier sets its polarity itself") }
            let level = Int16(min(16000, Int(try ceilingLevel(rig) ?? 32767) * 7 / 10))
            var outputs: [Int16] = []
            for flags in [Configure.flagAllowReverse, 0] {
                outputs.append(try playing(rig, UInt16(bitPattern: -level), format: .i16, flags: flags).output)
            }
            let expected: [Int16] = canReverse ? [-level, 0] : [0, 0]
            try require(outputs == expected,
                        "i16 frames of -\(level) with and without the allow-reverse flag on a board that "
                        + "\(canReverse ? "can" : "cannot (capability bit 0 clear)") reverse: expected outputs \(expected), got \(outputs)")
            return .pass(canReverse ? "-\(level) with the flag, 0 without" : "0 with and without the flag (the board cannot reverse)")
        },
    ]
}
