// `motorbreath render` and `fidelity` as a user runs them: formats, and one-line errors for bad input.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct RenderCommandTests {
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
        // The whole breath, its 4 s hold-out included (a Parameter at 16 s ends the file): 16 s, not the exhale's end at 12 s.
        #expect(json["frames"] as? Int == 16 * 250)
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
        #expect(rows.count == 11)
        #expect((rows[2]["rms_percent"] as! Double) <= 3.0)
    }

    /// -o writes through what should stay what it is (devices, FIFOs, links) and replaces a regular file whole.
    @Test func outputTargetsAreWrittenThroughOrReplacedWhole() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("targets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func kind(_ path: String) -> mode_t {
            var st = stat()
            return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
        }
        let render = ["render", "--pattern", "1-0-1", "--frame-rate", "50", "-o"]
        let rows = 1 + 100

        // A device is written into and stays a device.
        for device in ["/dev/null", "/dev/full"] {
            _ = try runMotorbreath(render + [device])
            #expect(kind(device) == S_IFCHR, "\(device) is no longer a device")
        }
        // A FIFO: a reader gets the CSV, the FIFO stays a FIFO.
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let got = Pipe()
        reader.standardOutput = got
        try reader.run()
        defer { if reader.isRunning { reader.terminate() } }
        let r = try runMotorbreath(render + [fifo])
        let text = String(decoding: got.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(text.split(separator: "\n").count == rows)
        #expect(kind(fifo) == S_IFIFO)

        // A symlink: the link stays, its target gets the output; a dangling link creates its target.
        let target = dir + "/target.csv", link = dir + "/link.csv"
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try runMotorbreath(render + [link]).status == 0)
        #expect(kind(link) == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8).split(separator: "\n").count == rows)
        let dangling = dir + "/dangling.csv", made = dir + "/made.csv"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: made)
        #expect(try runMotorbreath(render + [dangling]).status == 0)
        #expect(kind(dangling) == S_IFLNK && kind(made) == S_IFREG)

        // A regular file is replaced whole, keeping its permissions; no temporary file is left behind.
        let plain = dir + "/plain.csv"
        try "old\n".write(toFile: plain, atomically: false, encoding: .utf8)
        #expect(chmod(plain, 0o640) == 0)
        #expect(try runMotorbreath(render + [plain]).status == 0)
        var st = stat()
        #expect(stat(plain, &st) == 0 && st.st_mode & 0o777 == 0o640)
        #expect(try String(contentsOfFile: plain, encoding: .utf8).split(separator: "\n").count == rows)
        // A failed render leaves the old file as it was.
        let bad = try runMotorbreath(["render", "--ahap", "/nonexistent.ahap", "-o", plain])
        let after = try String(contentsOfFile: plain, encoding: .utf8)
        #expect(bad.status != 0 && after.split(separator: "\n").count == rows)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }.isEmpty)
        // - and /dev/stdout are standard output.
        for name in ["-", "/dev/stdout"] {
            let out = try runMotorbreath(render + [name])
            #expect(out.status == 0 && out.stdout.split(separator: "\n").count == rows, "\(name)")
        }
    }

    /// Renders stream: 2 hours of frames (1.8 million) in every format within 150 MB of address space,
    /// which holding the frames (40 bytes each, plus the text) would exceed. The time/memory table in the
    /// notes measures 10 hours.
    @Test(arguments: ["csv", "json", "svg"])
    func longRendersStreamInSmallMemory(format: String) async throws {
        let command = "ulimit -v 150000; exec \"\(motorbreathBinary.path)\" render --pattern 4-7-8 --minutes 120 --format \(format) -o /dev/null"
        let status = try await offPool { () -> Int32 in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", command]
            p.environment = testEnvironment()
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        #expect(status == 0)
    }
}
