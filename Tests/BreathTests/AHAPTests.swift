// AHAP: export -> import equality, Core Haptics loading rules, and errors that say where.

import Breath
import Foundation
import Testing

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

@Suite struct AHAPTests {
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
                     "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.7},
                                         {"ParameterID": "HapticSharpness", "ParameterValue": -3}], "Whatever": true}},
          {"Event": {"Time": 3, "EventType": "AudioCustom", "EventWaveformPath": "x.wav"}},
          {"Parameter": {"ParameterID": "AudioVolumeControl", "Time": 0, "ParameterValue": 0.5}},
          {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 2.5, "ParameterValue": 2}}
        ]}
        """
        let imported = try AHAPImport(data: Data(text.utf8))
        let events = imported.pattern.events
        #expect(events.count == 2)
        #expect(events[0] == HapticEvent(kind: .transient, time: 1, intensity: 1.0, sharpness: 0.5))  // defaults
        #expect(events[1].intensity == 1 && events[1].sharpness == 0)                                // clamped
        #expect(imported.pattern.control(.intensityControl, at: 3) == 1)                           // clamped to 1
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
}
