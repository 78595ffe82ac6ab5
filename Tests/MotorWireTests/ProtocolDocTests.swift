// protocol.md against the code: golden vectors both ways, and the type, NAK and state tables.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire
import Testing
import TestSupport

/// protocol.md, read from the package root (found from this file's path).
let protocolDoc: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return try! String(contentsOf: root.appendingPathComponent("protocol.md"), encoding: .utf8)
}()

/// Every `<!-- golden: NAME -->` block: name -> bytes.
func goldenBlocks() -> [String: [UInt8]] {
    var out: [String: [UInt8]] = [:]
    let pattern = try! NSRegularExpression(pattern: "<!-- golden: ([a-z-]+) -->\\s*```text\\n([0-9A-F \\n]+)```")
    let ns = protocolDoc as NSString
    for m in pattern.matches(in: protocolDoc, range: NSRange(location: 0, length: ns.length)) {
        out[ns.substring(with: m.range(at: 1))] = hexBytes(ns.substring(with: m.range(at: 2)))
    }
    return out
}

/// Rows `| <number> | \`name\` |` of the table that follows `heading`.
func tableRows(after heading: String) -> [(code: Int, name: String)] {
    guard let start = protocolDoc.range(of: heading) else { return [] }
    var rows: [(Int, String)] = []
    var inTable = false
    for line in protocolDoc[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("|") {
            inTable = true
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[1].hasPrefix("`") else { continue }
            let codeText = cells[0]
            let code = codeText.hasPrefix("0x") ? Int(codeText.dropFirst(2), radix: 16) : Int(codeText)
            if let code { rows.append((code, cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")))) }
        } else if inTable {
            break
        }
    }
    return rows
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ProtocolDocTests {
    @Test func everyExampleInTheDocHasAMessageAndViceVersa() {
        let names = Set(goldenBlocks().keys)
        let expected = Set(Golden.hostMessages().map(\.name) + Golden.boardMessages().map(\.name))
        #expect(names == expected)
        // And every message type of the protocol has a worked example.
        let typed = Set(Golden.hostMessages().map(\.message.type) + Golden.boardMessages().map(\.message.type))
        #expect(typed == Set(MessageType.allCases), "no example for \(Set(MessageType.allCases).subtracting(typed))")
    }

    /// Each named example encodes to exactly the doc's bytes, and the doc's bytes decode to it.
    func checkExamples<M: Equatable>(_ examples: [(name: String, seq: UInt8, message: M)], encode: (M, UInt8) -> [UInt8],
                                     decode: (Packet) throws(WireError) -> M) throws {
        let blocks = goldenBlocks()
        for g in examples {
            let bytes = try #require(blocks[g.name])
            #expect(encode(g.message, g.seq) == bytes, "encode \(g.name)")
            var d = FrameDecoder()
            let ps = packets(decodeAll(bytes, decoder: &d))
            try #require(ps.count == 1, "decode \(g.name)")
            #expect(ps[0].seq == g.seq)
            #expect(try decode(ps[0]) == g.message, "decode \(g.name)")
        }
    }

    @Test func hostExamplesEncodeAndDecodeExactly() throws {
        try checkExamples(Golden.hostMessages(), encode: { wireBytes($0, seq: $1) }, decode: { p throws(WireError) in try HostMessage(p) })
    }

    @Test func boardExamplesEncodeAndDecodeExactly() throws {
        try checkExamples(Golden.boardMessages(), encode: { wireBytes($0, seq: $1) }, decode: { p throws(WireError) in try BoardMessage(p) })
    }

    @Test func messageTypeTableMatchesTheCode() {
        let rows = tableRows(after: "## 4. Messages")
        #expect(rows.count == MessageType.allCases.count)
        for (code, name) in rows {
            #expect(MessageType(rawValue: UInt8(code)).map { "\($0)" } == name, "type 0x\(String(code, radix: 16))")
        }
    }

    @Test func nakTableMatchesTheCode() {
        let rows = tableRows(after: "| code | name | detail |")
        #expect(rows.count == NakCode.allCases.count)
        for (code, name) in rows {
            #expect(NakCode(rawValue: UInt8(code)).map { "\($0)" } == name)
        }
    }

    @Test func stateTableMatchesTheCode() {
        let rows = tableRows(after: "## 6. Board states")
        #expect(rows.count == BoardState.allCases.count)
        for (code, name) in rows {
            #expect(BoardState(rawValue: UInt8(code)).map { "\($0)" } == name)
        }
    }

    @Test func sizesInTheDocMatchTheCode() {
        let protocolDoc = protocolDoc.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(protocolDoc.contains("`len` ≤ **240**") && Wire.maxPayload == 240)
        #expect(protocolDoc.contains("at most **247** bytes") && Wire.maxEncodedFrame == 247)
        #expect(protocolDoc.contains("at most **248** bytes") && Wire.maxWireFrame == 248)
        #expect(protocolDoc.contains("is **0x29B1**"))
        #expect(DutyFormat.u8.maxPerMessage == 234 && DutyFormat.u16.maxPerMessage == 117)
        #expect(Status.payloadSize == 42 && Played.payloadSize == 22 && Start.payloadSize == 20)
        #expect(Configure.payloadSize == 10 && Nak.payloadSize == 7 && Info.fixedSize == 28)
        #expect(Limits.payloadSize == 12)
        #expect(Sense.payloadSize == 4 && SensorState.payloadSize == 16 && SampleBatch.headerSize == 12)
        #expect(protocolDoc.contains("1 ... floor(228 / (2 × axes set)) (114 for one axis, 38 for three)"))
        #expect(Sense.maxBatch(axisCount: 1) == 114 && Sense.maxBatch(axisCount: 3) == 38)
    }

    /// The LIMITS payload table: every row's offset and width is where the encoder puts that field
    /// (each field gets a distinct value, found back at the documented offset), and nothing else.
    @Test func limitsPayloadTableMatchesTheEncoding() throws {
        let start = try #require(protocolDoc.range(of: "### LIMITS_REQ (0x08)"))
        var rows: [(offset: Int, width: Int, field: String)] = []
        for line in protocolDoc[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }) {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, let offset = Int(cells[0]), cells[1] == "u16" else { continue }
            rows.append((offset, 2, cells[2]))
        }
        let limits = Limits(ceilingLevel: 0x0101, overdriveMs: 0x0202, recoveryMs: 0x0303, availableMs: 0x0404,
                            ratedMillivolts: 0x0505, supplyMillivolts: 0x0606)
        let expected = ["ceiling_level": 0x01, "overdrive_ms": 0x02, "recovery_ms": 0x03, "available_ms": 0x04,
                        "rated_mv": 0x05, "supply_mv": 0x06]
        let payload = BoardMessage.limits(limits).payload()
        #expect(rows.map(\.field).sorted() == expected.keys.sorted())
        #expect(rows.map(\.width).reduce(0, +) == payload.count)
        for row in rows {
            let marker = try #require(expected[row.field])
            #expect(payload[row.offset] == UInt8(marker) && payload[row.offset + 1] == UInt8(marker), "\(row.field)")
        }
    }

    /// The `| off | type | field |` rows of the first table after `marker`: offset, width in bytes, field.
    func payloadRows(after marker: String) throws -> [(offset: Int, width: Int, field: String)] {
        let start = try #require(protocolDoc.range(of: marker), "\(marker) not in protocol.md")
        var rows: [(offset: Int, width: Int, field: String)] = []
        let widths = ["u8": 1, "u16": 2, "u32": 4, "u64": 8]
        for line in protocolDoc[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }) {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, let offset = Int(cells[0]), let width = widths[cells[1]] else { continue }
            rows.append((offset, width, cells[2]))
        }
        return rows
    }

    /// SENSE, SENSOR and the SAMPLES header: every row's offset and width is where the encoder puts that
    /// field (a distinct marker value per field, found back at the documented offset), and nothing else.
    @Test func sensorPayloadTablesMatchTheEncoding() throws {
        func check(_ marker: String, _ payload: FixedBytes, _ expected: [String: UInt8], size: Int) throws {
            let rows = try payloadRows(after: marker)
            #expect(rows.map(\.field).sorted() == expected.keys.sorted(), "\(marker)")
            #expect(rows.map(\.width).reduce(0, +) == size, "\(marker)")
            for row in rows {
                let v = try #require(expected[row.field])
                for k in 0..<row.width { #expect(payload[row.offset + k] == v, "\(marker) \(row.field) byte \(k)") }
            }
        }
        try check("SENSE (4 bytes):", HostMessage.sense(rateHz: 0x0101, axes: 2, batch: 3).payload(),
                  ["rate_hz": 1, "axes": 2, "batch": 3], size: Sense.payloadSize)
        let sensor = SensorState(rateHz: 0x0101, axes: 2, batch: 3, intervalTicks: 0x0404_0404, maxRateHz: 0x0505,
                                 scaleMicroG: 0x0606, rangeG: 7, part: 8, sensorODRHz: 0x0909)
        try check("SENSOR (16 bytes)", BoardMessage.sensor(sensor).payload(),
                  ["rate_hz": 1, "axes": 2, "batch": 3, "interval_ticks": 4, "max_rate_hz": 5, "scale_ug": 6,
                   "range_g": 7, "part": 8, "sensor_odr_hz": 9], size: SensorState.payloadSize)
        var batch = SampleBatch(seq: 0x0101, lost: 3, firstTick: 0x0404_0404_0404_0404, axisCount: 1)
        batch.append(0x0505)
        batch.append(0x0505)
        try check("SAMPLES (12 + n", BoardMessage.samples(batch).payload(), ["seq": 1, "count": 2, "lost": 3, "first_tick": 4],
                  size: SampleBatch.headerSize)
    }

    /// INFO's capability cell names bit 2 for LIMITS, as the code does.
    @Test func capabilityBitsInTheDocMatchTheCode() {
        #expect(protocolDoc.contains("bit 2: enforces a drive ceiling and answers LIMITS_REQ with LIMITS"))
        #expect(Info.capLimits == 1 << 2 && Info.capLRACarrier == 1 << 1 && Info.capReverse == 1 << 0)
        #expect(protocolDoc.contains("bit 4: has a vibration sensor and takes SENSE (revision 1.5)"))
        #expect(Info.capSensor == 1 << 4 && Info.capReplace == 1 << 3)
        #expect(protocolDoc.contains("(revision 1.5)") && Wire.revision == 5)
    }

    /// The capability set is the same bits as the byte constants, both ways.
    @Test func theCapabilitySetIsTheWiresByte() {
        let pairs: [(Info.Capabilities, UInt8)] = [(.reverse, Info.capReverse), (.lraCarrier, Info.capLRACarrier),
                                                   (.limits, Info.capLimits), (.replace, Info.capReplace),
                                                   (.sensor, Info.capSensor)]
        for (set, byte) in pairs { #expect(set.rawValue == byte) }
        var info = Info(firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, motorKind: .erm, pwmBits: 8, capabilities: 0,
                        bufferCapacity: 256, minFrameRateHz: 50, maxFrameRateHz: 1000, clockHz: 1_000_000, uniqueID: 7,
                        lraResonanceDeciHz: 0, name: BoardName("b"))
        info.capabilitySet = [.reverse, .replace]
        #expect(info.capabilities == Info.capReverse | Info.capReplace)
        info.capabilities |= Info.capLimits
        #expect(info.capabilitySet.contains(.limits) && !info.capabilitySet.contains(.lraCarrier))
    }
}
