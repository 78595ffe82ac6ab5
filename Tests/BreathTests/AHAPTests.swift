// AHAP: export -> import equality, Core Haptics loading rules, and errors that say where.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import Testing
import TestSupport

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct AHAPTests {
    func roundTrip(_ p: HapticPattern) throws -> HapticPattern {
        try AHAPImport(data: AHAPExport.data(p)).pattern
    }

    @Test(arguments: ["4-7-8", "box", "coherent", "sigh"])
    func breathPlansSurviveExportAndImport(name: String) throws {
        var o = BreathOptions()
        o.cues = true
        o.easing = .sineInOut
        o.length = .cycles(2)
        let plan = BreathPlan(pattern: try BreathPattern.parse(name), options: o)
        #expect(try roundTrip(plan.haptics) == plan.haptics)
    }

    @Test func longCurvesAreChainedForCoreHapticsAndRenderTheSame() throws {
        let points = (0..<40).map { ControlPoint(time: 1 + Double($0) * 0.25, value: Double($0 % 7) / 7, easing: .smoothstep) }
        let p = HapticPattern(events: [.continuous(at: 0, duration: 12, intensity: 0.9)],
                              curves: [ParameterCurve(parameter: .intensityControl, time: 0.5, points: points)])
        let json = try JSONSerialization.jsonObject(with: AHAPExport.data(p)) as! [String: Any]
        let curves = (json["Pattern"] as! [[String: Any]]).compactMap { $0["ParameterCurve"] as? [String: Any] }
        #expect(curves.count == 3)
        #expect(curves.allSatisfy { ($0["ParameterCurveControlPoints"] as! [Any]).count <= 16 })
        let back = try roundTrip(p)
        for i in 0...1300 {
            let t = Double(i) / 100
            #expect(abs(back.continuousIntensity(at: t) - p.continuousIntensity(at: t)) < 1e-9, "t = \(t)")
        }
    }

    @Test func loadsLikeCoreHaptics() throws {
        let text = """
        {"Version": 1, "Unknown": {"x": 1}, "Pattern": [
          {"Event": {"Time": 1, "EventType": "HapticTransient"}},
          {"Event": {"Time": 2, "EventType": "HapticContinuous", "EventDuration": 1,
                     "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": -0.5},
                                         {"ParameterID": "HapticSharpness", "ParameterValue": -3}], "Whatever": true}},
          {"Event": {"Time": 3, "EventType": "AudioCustom", "EventWaveformPath": "x.wav"}},
          {"Parameter": {"ParameterID": "AudioVolumeControl", "Time": 0, "ParameterValue": 0.5}},
          {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 2.5, "ParameterValue": -1}}
        ]}
        """
        let imported = try AHAPImport(data: Data(text.utf8))
        let events = imported.pattern.events
        #expect(events.count == 2)
        #expect(events[0] == HapticEvent(kind: .transient, time: 1, intensity: 1.0, sharpness: 0.5))  // defaults
        // Clamped, not ignored: ignoring would leave the defaults (intensity 1, sharpness 0.5, control 1).
        #expect(events[1].intensity == 0 && events[1].sharpness == 0)
        #expect(imported.pattern.control(.intensityControl, at: 3) == 0)
        #expect(imported.notices.contains { $0.contains("AudioCustom event skipped") })
        #expect(imported.notices.contains { $0.contains("AudioVolumeControl") })
    }

    @Test func malformedJSONNamesTheLineAndColumn() {
        let text = "{\n  \"Pattern\": [\n    {\"Event\": {\"Time\": 0,, \"EventType\": \"HapticTransient\"}}\n  ]\n}"
        #expect {
            try AHAPImport(data: Data(text.utf8))
        } throws: { e in
            "\(e)".hasPrefix("bad AHAP file: line 3, column") && "\(e)".contains("not valid JSON")
        }
    }

    @Test(arguments: [
        ("{\"Pattern\": [{\"Event\": {\"Time\": \"soon\", \"EventType\": \"HapticTransient\"}}]}", "Pattern[0].Event.Time: expected a number"),
        ("{\"Pattern\": [{\"Event\": {\"EventType\": \"HapticBuzz\"}}]}", "Pattern[0].Event.EventType: unknown event type 'HapticBuzz'"),
        ("{\"Pattern\": [{\"Event\": {\"Time\": 0}}]}", "Pattern[0].Event.EventType: missing"),
        ("{\"Version\": 1}", "top level: no \"Pattern\" array"),
        ("[1, 2]", "top level: expected a JSON object"),
        ("{\"Pattern\": [{\"ParameterCurve\": {\"ParameterID\": \"HapticIntensityControl\", \"ParameterCurveControlPoints\": [{\"Time\": 0, \"ParameterValue\": 1, \"Easing\": \"bouncy\"}]}}]}",
         "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].Easing: unknown easing 'bouncy'"),
    ])
    func semanticErrorsNameWhere(text: String, expected: String) {
        #expect {
            try AHAPImport(data: Data(text.utf8))
        } throws: { e in
            "\(e)".contains(expected)
        }
    }

    /// Core Haptics' 4-7-8 example, three ways: in code, the preset, and the AHAP file.
    @Test func fourSevenEightIsTheSameInCodeFromThePresetAndFromItsAHAPFile() throws {
        let code = HapticPattern(events: [
            .continuous(at: 0, duration: 4, intensity: 0.8, sharpness: 0.3),
            .continuous(at: 11, duration: 8, intensity: 0.8, sharpness: 0.3),
        ], curves: [
            ParameterCurve(parameter: .intensityControl, time: 0, points: [ControlPoint(time: 0, value: 0), ControlPoint(time: 4, value: 1)]),
            ParameterCurve(parameter: .intensityControl, time: 11, points: [ControlPoint(time: 0, value: 1), ControlPoint(time: 8, value: 0)]),
        ])
        let preset = BreathPlan(pattern: try BreathPattern.parse("4-7-8")).haptics
        let file = try AHAPImport(path: fixtures.appendingPathComponent("4-7-8.ahap").path).pattern
        #expect(preset == code)
        #expect(file == code)
        func duties(_ p: HapticPattern) -> [UInt16] {
            var r = FrameRenderer(pattern: p, duration: 19, frameRate: 250, resolution: .i16)
            var out: [UInt16] = []
            r.render(count: 10_000, into: &out)
            return out
        }
        let d = duties(code)
        #expect(d.count == 4750)
        #expect(duties(preset) == d)
        #expect(duties(file) == d)
    }

    /// The article builds the exhale curve at relative time 0 with points at 11 and 19 s. A curve acts from
    /// its first point, so the inhale still swells 0 -> 0.8 under the first curve, exactly like the preset.
    @Test func theArticlesLiteralFourSevenEightSwellsLikeThePreset() throws {
        let article = try AHAPImport(path: fixtures.appendingPathComponent("4-7-8-article.ahap").path).pattern
        let preset = BreathPlan(pattern: try BreathPattern.parse("4-7-8")).haptics
        for (t, expected) in [(0.5, 0.1), (2.0, 0.4), (3.9, 0.78), (12.0, 0.7), (15.0, 0.4)] {
            #expect(abs(article.continuousIntensity(at: t) - expected) < 1e-12, "t = \(t)")
            #expect(abs(preset.continuousIntensity(at: t) - expected) < 1e-12, "t = \(t)")
        }
        func frames(_ p: HapticPattern) -> [RenderedFrame] {
            var r = FrameRenderer(pattern: p, duration: 19, frameRate: 250, resolution: .i16)
            return r.renderDetailed(count: 10_000)
        }
        let a = frames(article), b = frames(preset)
        #expect(a.count == 4750)
        #expect(a == b)
        #expect(a[125].intensity < 0.11 && a[500].intensity > 0.39 && a[500].intensity < 0.41)  // 0.5 s and 2 s: swelling
    }

    /// "Type" and "Parameters", as a widely copied example writes them, read as "EventType" and
    /// "EventParameters" with a notice; export writes Core Haptics' names.
    @Test func articleKeysAreReadAsCoreHapticsKeysWithANotice() throws {
        let copied = """
        {"Pattern": [{"Event": {"Time": 0.2, "Type": "HapticContinuous", "EventDuration": 1,
                                "Parameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.6}]}}]}
        """
        let proper = copied.replacingOccurrences(of: "\"Type\"", with: "\"EventType\"")
            .replacingOccurrences(of: "\"Parameters\"", with: "\"EventParameters\"")
        let a = try AHAPImport(data: Data(copied.utf8)), b = try AHAPImport(data: Data(proper.utf8))
        #expect(a.pattern == b.pattern)
        #expect(a.pattern.events.first?.intensity == 0.6)
        #expect(a.notices == ["Pattern[0].Event.Type: read as \"EventType\", the key Core Haptics uses",
                              "Pattern[0].Event.Parameters: read as \"EventParameters\", the key Core Haptics uses"])
        #expect(b.notices.isEmpty)
        let exported = String(decoding: AHAPExport.data(a.pattern), as: UTF8.self)
        #expect(exported.contains("\"EventType\"") && exported.contains("\"EventParameters\"") && !exported.contains("\"Type\""))
        // A bad alias is reported under the key the file used.
        #expect {
            try AHAPImport(data: Data(#"{"Pattern": [{"Event": {"Type": 3}}]}"#.utf8))
        } throws: { "\($0)" == "bad AHAP file: Pattern[0].Event.Type: missing or not a string" }
    }

    /// Times past 24 h are refused where they are, whatever the key; 1e308 does not crash anything.
    @Test(arguments: [
        (#"{"Event": {"Time": 1e308, "EventType": "HapticTransient"}}"#, "Pattern[0].Event.Time: 1e+308 s is past the longest pattern"),
        (#"{"Event": {"Time": 100000, "EventType": "HapticTransient"}}"#, "Pattern[0].Event.Time: 100000.0 s is past"),
        (#"{"Event": {"Time": 1, "EventType": "HapticContinuous", "EventDuration": 1e308}}"#, "Pattern[0].Event.EventDuration: 1e+308 s is past"),
        (#"{"Event": {"Time": 86000, "EventType": "HapticContinuous", "EventDuration": 401}}"#, "Pattern[0].Event.EventDuration: 86401.0 s is past"),
        (#"{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 1e308, "ParameterValue": 1}}"#, "Pattern[0].Parameter.Time: 1e+308 s is past"),
        (#"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 1e308, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}]}}"#,
         "Pattern[0].ParameterCurve.Time: 1e+308 s is past"),
        (#"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 1, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}, {"Time": 1e308, "ParameterValue": 0}]}}"#,
         "Pattern[0].ParameterCurve.ParameterCurveControlPoints[1].Time: 1e+308 s is past"),
    ])
    func timesPastTheLongestPatternAreRefusedWhereTheyAre(entry: String, expected: String) {
        #expect {
            try AHAPImport(data: Data((#"{"Pattern": ["# + entry + "]}").utf8))
        } throws: { e in
            "\(e)".hasPrefix("bad AHAP file: " + expected) && "\(e)".hasSuffix("past the longest pattern, 86400 s (24 h)")
        }
    }

    @Test func aPatternJustInsideTheLimitIsRead() throws {
        let text = #"{"Pattern": [{"Event": {"Time": 86399, "EventType": "HapticContinuous", "EventDuration": 1}}]}"#
        #expect(try AHAPImport(data: Data(text.utf8)).pattern.duration == 86_400)
    }
}

