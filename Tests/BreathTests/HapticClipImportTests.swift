// Meta/Lofelt `.haptic` import: clips written by hand from the data model's field names, the mapping to the
// Core Haptics model, the format chosen by extension and content, and every hostile file in one line.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import Testing
import TestSupport

/// A `.haptic` document around `amplitude` (and `frequency`) point lists written as JSON text.
func hapticText(_ amplitude: String, frequency: String? = nil, version: String = #"{"major": 1, "minor": 0, "patch": 0}"#) -> String {
    let envelopes = #""amplitude": [\#(amplitude)]"# + (frequency.map { #", "frequency": [\#($0)]"# } ?? "")
    return #"{"version": \#(version), "metadata": {"editor": "hand", "author": "", "source": "", "project": "", "tags": [], "description": "test"}, "signals": {"continuous": {"envelopes": {\#(envelopes)}}}}"#
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct HapticClipImportTests {
    static let swell = hapticText(#"""
        {"time": 0.0, "amplitude": 0.0},
        {"time": 0.5, "amplitude": 0.25, "emphasis": {"amplitude": 0.81, "frequency": 0.7}},
        {"time": 2.0, "amplitude": 1.0},
        {"time": 3.0, "amplitude": 0.0}
        """#, frequency: #"{"time": 0.0, "frequency": 0.25}, {"time": 3.0, "frequency": 1.0}"#)

    @Test func aClipReadsAsMetasConversionPlaysIt() throws {
        let file = try HapticClipImport(data: Data(Self.swell.utf8))
        #expect(file.notices.isEmpty)
        #expect(file.clip.amplitude.count == 4 && file.clip.frequency.count == 2)
        let p = file.pattern
        #expect(p.duration == 3)
        // Intensity is the square root of the amplitude, a line between the points' roots.
        #expect(abs(p.continuousIntensity(at: 0.5) - 0.5) < 1e-12)
        #expect(abs(p.continuousIntensity(at: 1.25) - 0.75) < 1e-12)
        #expect(abs(p.continuousIntensity(at: 2.0) - 1.0) < 1e-12)
        #expect(p.continuousIntensity(at: 3.0) == 0)
        // The emphasis is a tap of its own strength (sqrt 0.81), not scaled by the envelope's 0.5 there,
        // and its frequency is its sharpness as it is, whatever the frequency envelope adds.
        #expect(p.taps == [Tap(time: 0.5, intensity: 0.9, sharpness: 0.7)])
        #expect(Envelope(p).taps == p.taps)
        // The frequency envelope is the sharpness control: sqrt(0.25) at 0 s.
        #expect(abs(p.control(.sharpnessControl, at: 0) - 0.5) < 1e-12)
    }

    @Test func aClipWrittenToAHAPKeepsItsEnvelopeAndCapsItsEmphasis() throws {
        let p = try HapticClipImport(data: Data(Self.swell.utf8)).pattern
        let back = try AHAPImport(data: AHAPExport.data(p)).pattern
        // Core Haptics scales a tap by the intensity control, so one AHAP file plays the emphasis (0.9) at
        // most at the envelope's 0.5 there; its sharpness survives the sharpness control.
        #expect(back.taps.count == 1)
        #expect(abs(back.taps[0].intensity - 0.5) < 1e-12 && abs(back.taps[0].sharpness - 0.7) < 1e-12)
        for i in 0...300 {
            let t = Double(i) / 100
            #expect(abs(back.continuousIntensity(at: t) - p.continuousIntensity(at: t)) < 1e-12, "t = \(t)")
        }
    }

    @Test func theFormatIsChosenByExtensionAndContent() throws {
        let ahap = AHAPExport.data(HapticPattern(events: [.transient(at: 0.1, intensity: 0.5)]))
        let haptic = Data(Self.swell.utf8)
        #expect(try PatternFile(data: haptic).format == .haptic)
        #expect(try PatternFile(data: haptic, name: "clip.json").format == .haptic)
        #expect(try PatternFile(data: ahap, name: "a.json").format == .ahap)
        let misnamed = try PatternFile(data: haptic, name: "clip.ahap")
        #expect(misnamed.format == .haptic && misnamed.notices == ["clip.ahap holds a .haptic clip; read as one"])
        #expect(try PatternFile(data: ahap, name: "x.HAPTIC").format == .ahap)
        // A document whose first key says nothing is read by its extension, and refused in that format.
        let other = Data(#"{"x": 1}"#.utf8)
        #expect(throws: HapticFileError.self) { try PatternFile(data: other, name: "y.haptic") }
        do { _ = try PatternFile(data: other, name: "y.haptic") } catch { #expect("\(error)".hasPrefix("bad .haptic file: ")) }
        do { _ = try PatternFile(data: other) } catch { #expect("\(error)".hasPrefix("bad AHAP file: ")) }
    }

    @Test func aFileOnDiskIsReadByItsPath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("haptic-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("swell.haptic")
        try Data(Self.swell.utf8).write(to: clip)
        let file = try PatternFile(path: clip.path)
        #expect(file.format == .haptic && file.pattern.taps.count == 1)
        // Past the 64 MB limit: refused from the size, before a byte is read.
        let huge = dir.appendingPathComponent("huge.haptic")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(AHAPImport.maxFileBytes + 1))
        try handle.close()
        do {
            _ = try PatternFile(path: huge.path)
            Issue.record("a file past the limit was read")
        } catch {
            #expect("\(error)" == "bad .haptic file: \(huge.path): the file is larger than the 64 MB a .haptic file may have (64 MB)")
        }
    }

    static let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)

    /// Each hostile file and the words its one line must hold.
    static let hostile: [(String, String, String)] = [
        ("not JSON", "{\"version\": ", "not valid JSON"),
        ("NaN", hapticText(#"{"time": 0, "amplitude": NaN}, {"time": 1, "amplitude": 0}"#), "not valid JSON: unexpected character 'N'"),
        ("a number past Double", hapticText(#"{"time": 1e999, "amplitude": 0}"#), "number too large"),
        ("deep in the metadata", #"{"version": {"major": 1, "minor": 0, "patch": 0}, "metadata": \#(deep)}"#, "nested more than 128 levels deep"),
        ("deep in a point", hapticText(#"{"time": 0, "amplitude": 0, "x": \#(deep)}"#), "nested more than 128 levels deep"),
        ("top level an array", "[1, 2]", "top level: expected a JSON object with \"version\" and \"signals\", found an array"),
        ("no version", #"{"signals": {}}"#, "no \"version\""),
        ("version a string", hapticText("", version: "\"1.0.0\""), "version: expected an object with major, minor and patch, found \"1.0.0\""),
        ("version 2", hapticText("", version: #"{"major": 2, "minor": 0, "patch": 0}"#), "version: 2.0.0 is not one motorbreath reads (version 1.x)"),
        ("version 0", hapticText("", version: #"{"major": 0, "minor": 9, "patch": 0}"#), "0.9.0 is not one motorbreath reads"),
        ("version half", hapticText("", version: #"{"major": 1.5, "minor": 0, "patch": 0}"#), "version.major: expected a whole number, found 1.5"),
        ("metadata a list", #"{"version": {"major": 1, "minor": 0, "patch": 0}, "metadata": [], "signals": {}}"#, "metadata: expected an object, found an array"),
        ("no signals", #"{"version": {"major": 1, "minor": 0, "patch": 0}}"#, "top level: no \"signals\""),
        ("signals an array", #"{"version": {"major": 1, "minor": 0, "patch": 0}, "signals": []}"#, "signals: expected an object, found an array"),
        ("no amplitude", #"{"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {}}}}"#, "no \"amplitude\" array"),
        ("amplitude an object", #"{"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {"amplitude": {}}}}}"#,
         "amplitude: expected an array of points, found an object"),
        ("amplitude twice", #"{"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {"amplitude": [], "amplitude": []}}}}"#,
         "amplitude: appears twice"),
        ("a point a number", hapticText("0.5"), "amplitude[0]: expected an object with \"time\" and \"amplitude\", found 0.5"),
        ("amplitude a string", hapticText(#"{"time": 0, "amplitude": "0.5"}"#), "amplitude[0].amplitude: expected a number, found \"0.5\""),
        ("time null", hapticText(#"{"time": null, "amplitude": 0.5}"#), "amplitude[0].time: expected a number, found null"),
        ("no time", hapticText(#"{"amplitude": 0.5}"#), "amplitude[0]: no \"time\""),
        ("time negative", hapticText(#"{"time": -0.1, "amplitude": 0.5}"#), "amplitude[0].time: -0.1 s is outside 0...86400 s (24 h)"),
        ("time past 24 h", hapticText(#"{"time": 0, "amplitude": 0}, {"time": 1e9, "amplitude": 0}"#), "amplitude[1].time: 1000000000.0 s is outside"),
        ("amplitude above 1", hapticText(#"{"time": 0, "amplitude": 1.5}"#), "amplitude[0].amplitude: 1.5 is outside 0...1"),
        ("amplitude below 0", hapticText(#"{"time": 0, "amplitude": -0.01}"#), "amplitude[0].amplitude: -0.01 is outside 0...1"),
        ("emphasis frequency below 0", hapticText(#"{"time": 0, "amplitude": 0.1, "emphasis": {"amplitude": 0.5, "frequency": -0.1}}"#),
         "amplitude[0].emphasis.frequency: -0.1 is outside 0...1"),
        ("emphasis a number", hapticText(#"{"time": 0, "amplitude": 0.1, "emphasis": 1}"#), "emphasis: expected an object with \"amplitude\" and \"frequency\", found 1.0"),
        ("emphasis below its point", hapticText(#"{"time": 0, "amplitude": 0.6, "emphasis": {"amplitude": 0.5, "frequency": 0.5}}"#),
         "amplitude[0].emphasis.amplitude: 0.5 is below the envelope's 0.6 there"),
        ("frequency above 1", hapticText(#"{"time": 0, "amplitude": 0}, {"time": 1, "amplitude": 0}"#, frequency: #"{"time": 0, "frequency": 2}"#),
         "frequency[0].frequency: 2.0 is outside 0...1"),
        ("unsorted amplitude", hapticText(#"{"time": 0.3, "amplitude": 0}, {"time": 0.2, "amplitude": 0}"#),
         "amplitude[1].time: 0.2 s is before the point before it (0.3 s): times must not go back"),
        ("unsorted frequency", hapticText(#"{"time": 0, "amplitude": 0}, {"time": 1, "amplitude": 0}"#,
                                          frequency: #"{"time": 0.5, "frequency": 0}, {"time": 0.4, "frequency": 0}"#), "frequency[1].time: 0.4 s is before"),
        ("one point", hapticText(#"{"time": 0, "amplitude": 1}"#), "1 point; the amplitude envelope needs at least two"),
        ("no points", hapticText(""), "0 points; the amplitude envelope needs at least two"),
        ("zero duration", hapticText(#"{"time": 1, "amplitude": 1}, {"time": 1, "amplitude": 0}"#), "every point is at 1.0 s: the clip lasts no time"),
    ]

    @Test func everyHostileFileIsOneLine() {
        for (what, text, words) in Self.hostile {
            do {
                _ = try PatternFile(data: Data(text.utf8), name: "hostile.haptic")
                Issue.record("\(what): read")
            } catch {
                let line = "\(error)"
                #expect(line.hasPrefix("bad .haptic file: ") && line.contains(words), "\(what): \(line)")
                #expect(!line.contains("\n"), "\(what): \(line)")
            }
        }
    }

    @Test func frequencyPointsOutsideTheAmplitudeEnvelopeAreDroppedWithOneNote() throws {
        let text = hapticText(#"{"time": 0.5, "amplitude": 0}, {"time": 1, "amplitude": 1}"#,
                              frequency: #"{"time": 0, "frequency": 0.1}, {"time": 0.75, "frequency": 0.5}, {"time": 2, "frequency": 1}, {"time": 3, "frequency": 1}"#)
        let file = try HapticClipImport(data: Data(text.utf8))
        #expect(file.clip.frequency == [HapticClip.FrequencyPoint(time: 0.75, frequency: 0.5)])
        #expect(file.notices == ["signals.continuous.envelopes.frequency: 3 points outside the amplitude envelope (0.5...1.0 s), the first at 0.0 s; ignored"])
    }

    @Test func equalTimesMakeAStep() throws {
        let text = hapticText(#"{"time": 0, "amplitude": 0}, {"time": 1, "amplitude": 0}, {"time": 1, "amplitude": 1}, {"time": 2, "amplitude": 1}"#)
        let p = try HapticClipImport(data: Data(text.utf8)).pattern
        #expect(p.continuousIntensity(at: 0.999) == 0 && p.continuousIntensity(at: 1) == 1)
    }
}
