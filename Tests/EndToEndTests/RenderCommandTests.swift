// `motorbreath render` and `fidelity` as a user runs them: formats, and one-line errors for bad input.

import Foundation
import TestSupport
import Testing

@Suite struct RenderCommandTests {
    @Test func csvHasTheDocumentedColumnsAndOneRowPerFrame() throws {
        let r = try runMotorbreath(["render", "--pattern", "1-0.5-1", "--frame-rate", "100"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first == "time_s,intensity,duty,felt")
        #expect(lines.count == 1 + 250)
        #expect(lines[1].split(separator: ",").count == 4)
    }

    @Test func svgAndAHAPAreWellFormed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("b.svg").path, ahap = dir.appendingPathComponent("b.ahap").path
        #expect(try runMotorbreath(["render", "--pattern", "sigh", "--cues", "--format", "svg", "-o", svg]).status == 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg") && text.contains("<polyline") && text.contains("exhale"))
        #expect(try runMotorbreath(["render", "--pattern", "box", "--format", "ahap", "-o", ahap]).status == 0)
        // The exported file plays back through the importer.
        let back = try runMotorbreath(["render", "--ahap", ahap, "--format", "json"])
        #expect(back.status == 0, "\(back.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as! [String: Any]
        // AHAP has no trailing silence: the file ends with the exhale at 12 s (the 4 s hold-out is not in it).
        #expect(json["frames"] as? Int == 12 * 250)
    }

    @Test func badAHAPFilesAreOneLineWithWhere() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ahap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases = [
            ("{\"Pattern\": [\n{\"Event\": }\n]}", "line 2"),
            ("{\"Pattern\": [{\"Event\": {\"Time\": \"x\", \"EventType\": \"HapticTransient\"}}]}", "Pattern[0].Event.Time"),
        ]
        for (k, (text, expected)) in cases.enumerated() {
            let path = dir.appendingPathComponent("\(k).ahap").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            for command in [["render", "--ahap", path], ["--simulate", "--ahap", path]] {
                let r = try runMotorbreath(command)
                #expect(r.status != 0)
                #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(expected), "\(r.stderr)")
            }
        }
        let missing = try runMotorbreath(["render", "--ahap", "/nonexistent.ahap"])
        #expect(missing.status != 0 && missing.stderr.split(separator: "\n").count == 1)
    }

    @Test func fidelityPrintsJSON() throws {
        let r = try runMotorbreath(["fidelity", "--seconds", "0.05", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let rows = json["fidelity"] as! [[String: Any]]
        #expect(rows.count == 8)
        #expect((rows[2]["rms_percent"] as! Double) <= 3.0)
    }
}
