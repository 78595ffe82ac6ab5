// The page's pattern preview: a pattern (a preset or in-hold-out seconds, one cycle) or an AHAP, .haptic or .hjif file
// rendered as `motorbreath render` renders it (intended intensity, drive as output, modelled felt
// amplitude), thinned to at most 2000 points for a plot; and the pattern as an AHAP, .haptic or .hjif file.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorControl

/// What the page's preview shows and exports, from a pattern's name or an AHAP file's bytes.
public enum PatternPreview {
    /// At most this many points per plot.
    public static let maxPoints = 2000
    /// An uploaded AHAP file is at most 1 MiB.
    public static let maxUploadBytes = 1 << 20
    /// A preview covers at most 10 minutes.
    public static let maxSeconds = 600.0

    /// One cycle of a preset or of in-hold-out[-holdout] seconds, as `--pattern` takes it (one-line error).
    public static func pattern(named name: String) throws -> (haptics: HapticPattern, duration: Double, name: String) {
        do {
            let breath = try BreathPattern.parse(name)
            let plan = BreathPlan(pattern: breath, options: BreathOptions())
            return (plan.haptics, plan.duration, breath.name)
        } catch {
            throw ControlError("pattern: \(error)")
        }
    }

    /// An AHAP, `.haptic` or `.hjif` file's pattern, the format by `name`'s extension and the content (one-line
    /// error for a bad file).
    public static func ahap(_ data: Data, name: String? = nil) throws -> (haptics: HapticPattern, duration: Double, notices: [String]) {
        guard data.count <= maxUploadBytes else { throw ControlError("the file is \(data.count) bytes; the page takes at most \(maxUploadBytes) (1 MiB)") }
        do {
            let imported = try PatternFile(data: data, name: name)
            return (imported.pattern, imported.pattern.duration, imported.notices)
        } catch {
            throw ControlError("\(error)")
        }
    }

    /// The render's frames as JSON: `frame_rate`, `duration_s`, `motor`, `step` (frames per point), and the
    /// columns `time_s`, `intensity`, `drive`, `felt` (render's CSV columns), every `step`-th frame.
    public static func json(_ pattern: HapticPattern, duration: Double, name: String, motor: MotorProfile, frameRate: Int,
                            notices: [String] = []) throws -> Data {
        guard duration <= maxSeconds else { throw ControlError("the pattern lasts \(Int(duration)) s; the preview shows at most \(Int(maxSeconds)) s") }
        var renderer = FrameRenderer(pattern: pattern, duration: duration, frameRate: frameRate, resolution: .i16, motor: motor)
        let step = max(1, (renderer.frameCount + maxPoints - 1) / maxPoints)
        var time: [Double] = [], intensity: [Double] = [], drive: [Double] = [], felt: [Double] = []
        var index = 0
        while true {
            let frames = renderer.renderDetailed(count: 16_384)
            if frames.isEmpty { break }
            for f in frames {
                if index % step == 0 {
                    time.append(round4(f.time)); intensity.append(round4(f.intensity))
                    drive.append(round4(f.drive)); felt.append(round4(f.felt))
                }
                index += 1
            }
        }
        let object: [String: Any] = ["name": name, "frame_rate": frameRate, "duration_s": duration, "motor": motor.name, "step": step,
                                     "time_s": time, "intensity": intensity, "drive": drive, "felt": felt, "notices": notices]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The pattern as an AHAP file lasting `duration` (a breath's trailing hold included).
    public static func ahapText(_ pattern: HapticPattern, duration: Double, name: String) -> Data {
        AHAPExport.data(pattern, duration: duration, description: "\(name), made by motorbreath")
    }

    /// The pattern as a file of `format` lasting `duration`.
    public static func fileText(_ pattern: HapticPattern, duration: Double, name: String, format: PatternExportFormat) -> Data {
        Data(format.text(pattern, duration: duration, description: "\(name), made by motorbreath").utf8)
    }

    static func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
}
