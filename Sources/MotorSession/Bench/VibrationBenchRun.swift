// `bench --vibration` whole: prepare, play the bench's stimulus while sampling, analyse, identify the motor.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorPhysics

/// What `motorbreath bench --vibration` found on a board: the figures (onset, peak, stop, brake, the
/// drive-to-vibration curve, an LRA's resonance), the shaping model's parameters fitted to them, and what
/// the recording rests on. Every time in it is on the board's clock. Codable: `--json` prints it.
public struct VibrationBenchResult: Sendable, Codable {
    public var board: String
    /// The board's INFO `unique_id` (its calibration profiles are saved under it).
    public var uniqueID: UInt64 = 0
    public var vibration: VibrationReport
    /// The shaping model fitted to the measurement (nil when the fit found nothing to fit).
    public var identified: IdentifiedMotor?
    /// Why there is no fit, or what it could not see.
    public var identificationNote: String?
    /// The felt error of the bench's 4-7-8 measured through the accelerometer (not through a model): as
    /// shaped for the reference motor model, and played again shaped for the fitted one.
    public var feltReference: MeasuredFelt?
    public var feltIdentified: MeasuredFelt?
    public var framesPlayed: Int
    public var framesTotal: Int
    public var stimulusSeconds: Double
    /// The recording itself (for the plot); not in the JSON.
    public var recording: VibrationRecording? = nil

    enum CodingKeys: String, CodingKey {
        case board, uniqueID = "unique_id", vibration, identified, framesPlayed = "frames_played", framesTotal = "frames_total"
        case stimulusSeconds = "stimulus_seconds", identificationNote = "identification_note"
        case feltReference = "felt_reference", feltIdentified = "felt_identified"
    }

    /// The plot of drive and measured vibration against board time (SVG).
    public var svg: String? {
        recording.map { VibrationPlot(recording: $0, kind: vibration.motor == "lra" ? .lra : .erm, title: "\(board): vibration").render() }
    }
}

extension VibrationBench {
    /// Runs the whole bench on `channel`'s board: identification's steps, a reverse kick, a staircase, short
    /// steps near the start threshold, a ramp and a 4-7-8 breath (`Stimulus.bench`, about 40 s), sampled
    /// throughout; then the analysis and the motor's identification. An LRA's resonance sweep needs the
    /// carrier changed per segment, which a board takes from CONFIGURE: here its parts play at the board's
    /// carrier, so an LRA is measured but not fitted (`identificationNote` says so).
    public static func run(channel: BoardChannel, base: SessionOptions = SessionOptions(),
                           shouldStop: () -> Bool = { false }) throws(SessionError) -> VibrationBenchResult {
        let probe = try channel.prepare(options: base)
        let kind: MotorFile.Kind = probe.info.motorKind == .lra ? .lra : .erm
        let carrier = probe.info.lraResonanceDeciHz > 0 ? Double(probe.info.lraResonanceDeciHz) / 10 : 175
        let stimulus: Stimulus
        do {
            stimulus = kind == .lra ? Stimulus.identification(for: .lra, carrierHz: carrier)
                : try Stimulus.bench(for: .erm, motor: .referenceERM)
        } catch { throw .incompatible("the bench's stimulus: \(error)") }
        let (recording, report) = try record(channel: channel, base: base, stimulus: stimulus, shouldStop: shouldStop)
        let name = probe.info.name.text
        let analysis = VibrationAnalysis.analyse(recording, kind: kind, carrierHz: kind == .lra ? carrier : nil, name: name)
        var result = VibrationBenchResult(board: name, vibration: analysis, framesPlayed: report.framesPlayed,
                                          framesTotal: report.framesTotal, stimulusSeconds: stimulus.seconds)
        result.recording = recording
        result.uniqueID = probe.info.uniqueID
        if report.interrupted { return result }
        if kind == .lra {
            result.identificationNote = "not fitted: an LRA's sweep needs the carrier changed per segment; it played at the board's \(carrier) Hz"
            return result
        }
        do {
            result.identified = try MotorIdentification.identify(recording, stimulus: stimulus, kind: kind, carrierHz: carrier)
        } catch {
            result.identificationNote = "\(error)"
        }
        if let m = result.identified, let breath = stimulus.parts.first(where: { $0.kind == .breath }) {
            try feltErrors(&result, m, recording, breath, channel: channel, base: base, frameRate: stimulus.frameRate, shouldStop: shouldStop)
        }
        return result
    }

    /// The bench's 4-7-8 through the accelerometer: as played (shaped for the reference model), then again
    /// shaped for the fitted model with its felt floor (about 20 s more), each judged against the pattern's
    /// intended intensity at every frame (`FeltMeasurement`), full scale from the fit's full-drive g.
    static func feltErrors(_ result: inout VibrationBenchResult, _ m: IdentifiedMotor, _ recording: VibrationRecording,
                           _ breath: StimulusPart, channel: BoardChannel, base: SessionOptions, frameRate: Int,
                           shouldStop: () -> Bool) throws(SessionError) {
        guard let plan = try? Stimulus.benchBreath() else { return }
        result.feltReference = FeltMeasurement.measure(recording, breath: breath, plan: plan, kind: m.kind, fullScaleG: m.fullScaleG, frameRate: frameRate)
        let again = Stimulus.breathAlone(plan, motor: m.profile, feltRange: m.feltRange, frameRate: frameRate)
        let (second, report) = try record(channel: channel, base: base, stimulus: again, shouldStop: shouldStop)
        result.framesPlayed += report.framesPlayed
        result.framesTotal += report.framesTotal
        result.stimulusSeconds += again.seconds
        if report.interrupted { return }
        result.feltIdentified = FeltMeasurement.measure(second, breath: again.parts[1], plan: plan, kind: m.kind, fullScaleG: m.fullScaleG, frameRate: frameRate)
    }
}

extension VibrationBenchResult {
    /// The fitted shaping model as one line (or why there is none), and what the measurement rests on.
    public var identifiedText: String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.1f ms", $0 * 1000) } ?? "-" }
        func pct(_ v: Double?) -> String { v.map { String(format: "%.1f %%", $0 * 100) } ?? "-" }
        var line: String
        if let m = identified {
            line = m.kind == .erm
                ? "identified ERM: rise \(ms(m.riseTau)), fall \(ms(m.fallTau)), brake \(ms(m.brakeTau)), start \(pct(m.startThreshold)), stop \(pct(m.stopThreshold)) of drive"
                : "identified LRA: resonance \(m.resonanceHz.map { String(format: "%.1f Hz", $0) } ?? "-"), tau \(ms(m.tau))"
            line += String(format: "; full drive %.3f g, from %.1f s of motor time", m.fullScaleG, m.motorSeconds)
        } else {
            line = "identification: \(identificationNote ?? "nothing to fit")"
        }
        if let a = feltReference {
            line += String(format: "\nfelt error of the 4-7-8 through the accelerometer: %.2f %% RMS (worst %.1f %%) shaped for the reference model", a.rmsPercent, a.maxErrorPercent)
            if let b = feltIdentified { line += String(format: ", %.2f %% (worst %.1f %%) for the fitted one", b.rmsPercent, b.maxErrorPercent) }
        }
        return line + "\nplayed \(framesPlayed)/\(framesTotal) frames (\(String(format: "%.1f", stimulusSeconds)) s), on the board's clock"
    }
}
