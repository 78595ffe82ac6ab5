// MPEG-I haptics `.hjif` import: files written by hand from ISO/IEC 23090-31's field names (the reference
// software's), the bands mapped to the Core Haptics model, what is dropped said once, and every hostile file
// in one line.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import Testing
import TestSupport

/// A `.hjif` document around `bands` (JSON text of the band objects) in one Vibrotactile perception.
func hjifText(_ bands: String, version: String = "\"2023\"", timescale: String = "1000", modality: String = "\"Vibrotactile\"",
              channels: String? = nil) -> String {
    let channel = channels ?? #"[{"id": 0, "description": "wrist", "gain": 1, "mixing_coefficient": 1, "body_part_mask": 0, "bands": [\#(bands)]}]"#
    return #"{"version": \#(version), "profile": "Simple Parametric", "level": 1, "date": "2026-01-01", "description": "hand", "timescale": \#(timescale), "avatars": [{"id": 1, "lod": 0, "type": "Vibration"}], "syncs": [], "perceptions": [{"id": 0, "avatar_id": 1, "description": "p", "perception_modality": \#(modality), "effect_library": [], "channels": \#(channel)}]}"#
}

/// A band of `type` whose effects are `effects` (JSON text).
func hjifBand(_ type: String, _ effects: String, extra: String = "") -> String {
    #"{"band_type": "\#(type)", \#(extra)"lower_frequency_limit": 65, "upper_frequency_limit": 300, "effects": [\#(effects)]}"#
}

/// A Basis effect at `position` with `keyframes` (JSON text).
func hjifEffect(_ position: Int, _ keyframes: String) -> String {
    #"{"effect_type": "Basis", "position": \#(position), "phase": 0, "base_signal": "Sine", "keyframes": [\#(keyframes)]}"#
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct HJIFImportTests {
    /// A swell from 0 to amplitude 1 over 2 s then off at 3 s, at 65 then 300 Hz, and one tap at 0.5 s.
    static let swell = hjifText(hjifBand("VectorialWave", hjifEffect(0, #"""
        {"relative_position": 0, "amplitude_modulation": 0, "frequency_modulation": 65},
        {"relative_position": 2000, "amplitude_modulation": 1, "frequency_modulation": 300},
        {"relative_position": 3000, "amplitude_modulation": 0}
        """#)) + ", " + hjifBand("Transient", hjifEffect(500, #"{"amplitude_modulation": 0.81, "frequency_modulation": 206}"#)))

    @Test func aFileReadsAsItsBandsPlay() throws {
        let file = try HJIFImport(data: Data(Self.swell.utf8))
        #expect(file.notices.isEmpty)
        let p = file.pattern
        #expect(p.duration == 3)
        // Intensity is the square root of the amplitude (the .haptic rule), a line between the keyframes' roots.
        #expect(abs(p.continuousIntensity(at: 1) - 0.5) < 1e-12)
        #expect(abs(p.continuousIntensity(at: 2) - 1) < 1e-12)
        #expect(abs(p.continuousIntensity(at: 2.5) - 0.5) < 1e-12)
        // The tap: position 500 ticks of 1000 a second, sqrt(0.81), (206 - 65) / 235 = 0.6 sharp.
        #expect(p.taps.count == 1 && p.taps[0].time == 0.5 && abs(p.taps[0].intensity - 0.9) < 1e-12 && abs(p.taps[0].sharpness - 0.6) < 1e-12)
        // Frequency is the sharpness control: 65 Hz is 0, 300 Hz is 1, and a missing one holds the last.
        #expect(abs(p.control(.sharpnessControl, at: 0)) < 1e-12 && abs(p.control(.sharpnessControl, at: 1) - 0.5) < 1e-12)
    }

    @Test func theTimescaleIsTicksASecond() throws {
        let text = hjifText(hjifBand("Transient", hjifEffect(96_000, #"{"relative_position": 4800, "amplitude_modulation": 1}"#)), timescale: "48000")
        let p = try HJIFImport(data: Data(text.utf8)).pattern
        #expect(p.taps.map(\.time) == [2.1])
    }

    @Test func theLatestEffectOfABandPlaysAndChannelsMeetAtTheStrongest() throws {
        // Band A: an effect at 0 held at 0.64 to 2 s, cut at 1 s by one at 0.16; band B: 0.36 from 0.5 to 1.5 s.
        let a = hjifBand("Curve", hjifEffect(0, #"{"relative_position": 0, "amplitude_modulation": 0.64}, {"relative_position": 2000, "amplitude_modulation": 0.64}"#)
            + ", " + hjifEffect(1000, #"{"relative_position": 0, "amplitude_modulation": -0.16}, {"relative_position": 1000, "amplitude_modulation": 0.16}"#),
            extra: #""curve_type": "Cubic", "#)
        let b = hjifBand("VectorialWave", hjifEffect(500, #"{"relative_position": 0, "amplitude_modulation": 0.36}, {"relative_position": 1000, "amplitude_modulation": 0.36}"#))
        let channels = #"[{"id": 0, "description": "a", "gain": 1, "mixing_coefficient": 1, "body_part_mask": 0, "bands": [\#(a)]}, {"id": 1, "description": "b", "gain": 1, "mixing_coefficient": 1, "body_part_mask": 0, "bands": [\#(b)]}]"#
        let file = try HJIFImport(data: Data(hjifText("", channels: channels).utf8))
        let p = file.pattern
        #expect(abs(p.continuousIntensity(at: 0.25) - 0.8) < 1e-12)
        #expect(abs(p.continuousIntensity(at: 1.25) - 0.6) < 1e-12)   // band B's 0.36 beats the cut effect's 0.16
        #expect(abs(p.continuousIntensity(at: 1.75) - 0.4) < 1e-12)   // a Curve's signal below 0: its size
        #expect(p.continuousIntensity(at: 2.5) == 0)
        #expect(file.notices == ["Curve bands of curve_type Cubic read as straight lines between keyframes", "2 channels play on one motor: the strongest at each instant"])
    }

    @Test func whatCannotPlayOnOneMotorIsDroppedAndSaidOnce() throws {
        let tap = hjifBand("Transient", hjifEffect(0, #"{"amplitude_modulation": 1}"#))
        let wavelet = hjifBand("WaveletWave", hjifEffect(0, #"{"relative_position": 0, "amplitude_modulation": 1}"#), extra: #""block_length": 128, "#)
        let reference = hjifBand("Transient", #"{"effect_type": "Reference", "id": 3, "position": 0}, {"effect_type": "Reference", "id": 4, "position": 9}"#)
        let force = #"{"id": 1, "avatar_id": 1, "description": "f", "perception_modality": "Force", "effect_library": [], "channels": []}"#
        let text = hjifText([tap, wavelet, wavelet, reference].joined(separator: ", ")).replacingOccurrences(of: #""perceptions": ["#, with: #""perceptions": [\#(force), "#)
        let file = try HJIFImport(data: Data(text.utf8))
        #expect(file.pattern.taps.count == 1)
        #expect(file.notices == ["1 Force perceptions (only Vibrotactile ones play on a vibration motor); dropped",
                                 "2 Reference effects (only Basis effects are read); dropped",
                                 "2 WaveletWave bands (wavelet-coded signals are not read); dropped"])
    }

    @Test func theFormatIsChosenByExtensionAndContent() throws {
        let data = Data(Self.swell.utf8)
        #expect(try PatternFile(data: data).format == .hjif)
        #expect(try PatternFile(data: data, name: "x.json").format == .hjif)
        let misnamed = try PatternFile(data: data, name: "x.haptic")
        #expect(misnamed.format == .hjif && misnamed.notices == ["x.haptic holds an MPEG-I haptics (.hjif) file; read as one"])
        #expect(try PatternFile(data: Data(hapticText(#"{"time": 0, "amplitude": 0}, {"time": 1, "amplitude": 1}"#).utf8), name: "y.hjif").format == .haptic)
        do { _ = try PatternFile(data: Data(#"{"x": 1}"#.utf8), name: "z.HJIF") } catch { #expect("\(error)".hasPrefix("bad .hjif file: ")) }
    }

    static let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    static let key = #"{"relative_position": 0, "amplitude_modulation": 1}"#

    /// Each hostile file and the words its one line must hold.
    static let hostile: [(String, String, String)] = [
        ("not JSON", #"{"version": "#, "not valid JSON"),
        ("NaN", hjifText(hjifBand("Transient", hjifEffect(0, #"{"amplitude_modulation": NaN}"#))), "not valid JSON: unexpected character 'N'"),
        ("a number past Double", hjifText(hjifBand("Transient", hjifEffect(0, #"{"amplitude_modulation": 1e999}"#))), "number too large"),
        ("deep at the top", #"{"version": "2023", "x": \#(deep)}"#, "nested more than 128 levels deep"),
        ("deep in a keyframe", hjifText(hjifBand("Transient", hjifEffect(0, #"{"amplitude_modulation": 1, "x": \#(deep)}"#))), "nested more than 128 levels deep"),
        ("top level an array", "[1]", "top level: expected a JSON object"),
        ("no version", #"{"timescale": 1000, "perceptions": []}"#, "top level: no \"version\""),
        ("version a number", hjifText("", version: "2023"), "version: expected a string such as \"2023\", found 2023.0"),
        ("version 2022", hjifText("", version: "\"2022\""), "version: \"2022\" is not one motorbreath reads"),
        ("version 1.0", hjifText("", version: "\"1.0\""), "version: \"1.0\" is not one motorbreath reads"),
        ("version amendment 0", hjifText("", version: "\"2023-0\""), "is not one motorbreath reads"),
        ("no timescale", #"{"version": "2023", "perceptions": []}"#, "top level: no \"timescale\""),
        ("timescale 0", hjifText("", timescale: "0"), "timescale: expected a whole number of ticks a second from 1 to 48000, found 0.0"),
        ("timescale half", hjifText("", timescale: "999.5"), "timescale: expected a whole number"),
        ("timescale a string", hjifText("", timescale: "\"1000\""), "timescale: expected a whole number"),
        ("no perceptions", #"{"version": "2023", "timescale": 1000}"#, "top level: no \"perceptions\" array"),
        ("perceptions an object", #"{"version": "2023", "timescale": 1000, "perceptions": {}}"#, "perceptions: expected an array, found an object"),
        ("perceptions twice", #"{"version": "2023", "timescale": 1000, "perceptions": [], "perceptions": []}"#, "perceptions: appears twice"),
        ("a perception a number", #"{"version": "2023", "timescale": 1000, "perceptions": [7]}"#, "perceptions[0]: expected an object, found 7.0"),
        ("no modality", #"{"version": "2023", "timescale": 1000, "perceptions": [{"channels": []}]}"#, "perceptions[0]: no \"perception_modality\""),
        ("modality a number", hjifText("", modality: "3"), "perceptions[0].perception_modality: expected a string, found 3.0"),
        ("no channels", #"{"version": "2023", "timescale": 1000, "perceptions": [{"perception_modality": "Vibrotactile"}]}"#, "perceptions[0]: no \"channels\" array"),
        ("channels a string", hjifText("", channels: "\"all\""), "perceptions[0].channels: expected an array, found \"all\""),
        ("gain a string", hjifText("", channels: #"[{"gain": "1", "bands": []}]"#), "perceptions[0].channels[0].gain: expected a number, found \"1\""),
        ("no band type", hjifText(#"{"effects": []}"#), "perceptions[0].channels[0].bands[0]: no \"band_type\""),
        ("band type unknown", hjifText(hjifBand("Noise", "")), "bands[0].band_type: \"Noise\" is not Transient, Curve, VectorialWave or WaveletWave"),
        ("band type a number", hjifText(#"{"band_type": 1, "effects": []}"#), "bands[0].band_type: expected a string, found 1.0"),
        ("effects null", hjifText(#"{"band_type": "Curve", "effects": null}"#), "bands[0].effects: expected an array, found null"),
        ("no position", hjifText(hjifBand("Transient", #"{"keyframes": [\#(key)]}"#)), "effects[0]: no \"position\""),
        ("position negative", hjifText(hjifBand("Transient", hjifEffect(-5, key))), "effects[0].position: -5.0 is not a whole number of ticks"),
        ("position a fraction", hjifText(hjifBand("Transient", hjifEffect(0, key).replacingOccurrences(of: "\"position\": 0", with: "\"position\": 0.5"))),
         "effects[0].position: 0.5 is not a whole number of ticks"),
        ("effect type a number", hjifText(hjifBand("Transient", #"{"effect_type": 1, "position": 0, "keyframes": []}"#)), "effects[0].effect_type: expected \"Basis\""),
        ("a keyframe a string", hjifText(hjifBand("Transient", hjifEffect(0, "\"tap\""))), "effects[0].keyframes[0]: expected an object"),
        ("amplitude a string", hjifText(hjifBand("Transient", hjifEffect(0, #"{"amplitude_modulation": "1"}"#))),
         "keyframes[0].amplitude_modulation: expected a number, found \"1\""),
        ("amplitude above 1", hjifText(hjifBand("Transient", hjifEffect(0, #"{"amplitude_modulation": 1.5}"#))), "keyframes[0].amplitude_modulation: 1.5 is outside -1.0...1.0"),
        ("frequency negative", hjifText(hjifBand("Transient", hjifEffect(0, #"{"amplitude_modulation": 1, "frequency_modulation": -90}"#))),
         "keyframes[0].frequency_modulation: -90.0 is outside"),
        ("relative position null", hjifText(hjifBand("Transient", hjifEffect(0, #"{"relative_position": null}"#))), "keyframes[0].relative_position: expected a whole number of ticks, found null"),
        ("unsorted keyframes", hjifText(hjifBand("Curve", hjifEffect(0, #"{"relative_position": 300}, {"relative_position": 200}"#))),
         "keyframes[1].relative_position: 200 is before the keyframe before it (300): keyframes must not go back"),
        ("past 24 h", hjifText(hjifBand("Transient", hjifEffect(86_400_001, key))), "past the 86400 s (24 h) a pattern may last"),
        ("ticks past any timescale", hjifText(hjifBand("Transient", hjifEffect(0, #"{"relative_position": 1e12}"#))), "relative_position: 1000000000000.0 is not a whole number of ticks"),
        ("nothing to play", hjifText(hjifBand("Curve", hjifEffect(0, #"{"relative_position": 0, "amplitude_modulation": 1}"#))), "nothing to play"),
        ("only force", hjifText(hjifBand("Transient", hjifEffect(0, key)), modality: "\"Force\""), "nothing to play"),
        ("zero duration", hjifText(hjifBand("VectorialWave", hjifEffect(5, #"{"relative_position": 0, "amplitude_modulation": 1}, {"relative_position": 0, "amplitude_modulation": 0}"#))),
         "nothing to play"),
    ]

    @Test func everyHostileFileIsOneLine() {
        for (what, text, words) in Self.hostile {
            do {
                _ = try PatternFile(data: Data(text.utf8), name: "hostile.hjif")
                Issue.record("\(what): read")
            } catch {
                let line = "\(error)"
                #expect(line.hasPrefix("bad .hjif file: ") && line.contains(words), "\(what): \(line)")
                #expect(!line.contains("\n"), "\(what): \(line)")
            }
        }
    }
}
