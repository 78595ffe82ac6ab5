// protocol.md against the code: golden vectors both ways, and the type, NAK and state tables.

import Foundation
import MotorWire
import Testing

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

@Suite struct ProtocolDocTests {
    @Test func everyExampleInTheDocHasAMessageAndViceVersa() {
        let names = Set(goldenBlocks().keys)
        let expected = Set(Golden.hostMessages().map(\.name) + Golden.boardMessages().map(\.name))
        #expect(names == expected)
        #expect(names.count == 12)
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
    }
}
