// The analysis against the physics it measures: onset, stop and brake times of a coin ERM beside their
// values from the motor's equations, the drive-to-vibration curve, an LRA's resonance from a sweep; the
// report as text, JSON and SVG; the stimulus's parts and length.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorPhysics
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct VibrationAnalysisTests {
    @Test func ermStepFiguresBesideTheEquations() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        let file = MotorFile.coinERM10mm
        let p = file.erm!
        var stimulus = Stimulus(frameRate: 250)
        stimulus.quiet(0.3)
        stimulus.step(1, on: 0.5, off: 0.5)
        stimulus.brake(on: 0.5, kick: -1, kickSeconds: 0.016, off: 0.5)
        let report = VibrationAnalysis.analyse(SimulatedBench(file: file, seed: seed).record(stimulus), kind: .erm)
        print(report.text(), "seed \(seed)")
        let start = try #require(report.steps.first { $0.kind == .start })
        // From rest the speed is ω_ss·(1 − e^(−t/τ)) and the acceleration its square: 10 % at
        // τ·ln(1/(1 − √0.1)), 90 % at τ·ln(1/(1 − √0.9)).
        let tau = p.mechanicalTau * 1000
        let t10 = tau * log(1 / (1 - 0.1.squareRoot())), t90 = tau * log(1 / (1 - 0.9.squareRoot()))
        #expect(abs(start.onset10Ms! - t10) < 2, "10 %: \(start.onset10Ms!) vs \(t10) ms, seed \(seed)")
        #expect(abs(start.onset90Ms! / t90 - 1) < 0.05, "90 %: \(start.onset90Ms!) vs \(t90) ms, seed \(seed)")
        let full = p.accelerationG(omega: p.steadySpeed(drive: 1), mountingG: file.mountingG)
        #expect(abs(start.steadyG! / full - 1) < 0.02, "steady \(start.steadyG!) vs \(full) g")
        // Stop: u = floor + (1 − floor)·ω/ω_full decays as e^(−t/τ); the acceleration is 10 % of full at
        // ω = √0.1·ω_full.
        let floor = p.stopDrive
        let uStop = floor + (1 - floor) * 0.1.squareRoot()
        let stopTrue = tau * log(1 / uStop)
        let stop = try #require(report.steps.first { $0.kind == .stop })
        #expect(abs(stop.stopMs! / stopTrue - 1) < 0.05, "stop \(stop.stopMs!) vs \(stopTrue) ms, seed \(seed)")
        let brake = try #require(report.steps.first { $0.kind == .brake })
        #expect(brake.brakeMs! < stop.stopMs! * 0.6, "brake \(brake.brakeMs!) ms, stop \(stop.stopMs!) ms")
        #expect(start.samples > 1000 && stop.samples > 10)
    }

    @Test func curveAndResonance() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        let file = try MotorFiles.load("lra-235")
        var stimulus = Stimulus(frameRate: 250)
        stimulus.quiet(0.3)
        stimulus.sweep(Array(stride(from: 140.0, through: 250, by: 5)), level: 0.6, each: 0.15, gap: 0.1)
        stimulus.staircase([0.25, 0.5, 1.0], tread: 0.2, off: 0.2)
        let recording = SimulatedBench(file: file, seed: seed).record(stimulus)
        let report = VibrationAnalysis.analyse(recording, kind: .lra, carrierHz: 235,
                                               sweep: SweepSegment.of(stimulus, clockHz: recording.clockHz))
        let r = try #require(report.resonance)
        print("lra-235: resonance \(r.resonanceHz) Hz, Q \(r.quality ?? -1), seed \(seed)")
        #expect(abs(r.resonanceHz - 235) < 3, "seed \(seed)")
        // The peak of a one-axis sine is √2 × its RMS: the sweep's top at 0.6 of full drive is 0.6 × F·Q/M.
        let peak = 0.6 * file.lra!.peakG(mountingG: file.mountingG)
        #expect(abs(r.peakG / peak - 1) < 0.05, "peak \(r.peakG) vs \(peak) g, seed \(seed)")
        #expect(r.points.count == 23 && r.samples > 1000)
        // The LRA is linear: the curve's steady amplitude doubles with the drive.
        #expect(report.curve.map(\.level) == [0.25, 0.5, 1.0])
        #expect(abs(report.curve[2].steadyG / report.curve[1].steadyG - 2) < 0.1)
    }

    @Test func reportTextJSONAndPlot() throws {
        var stimulus = Stimulus(frameRate: 250)
        stimulus.quiet(0.3)
        stimulus.step(0.7, on: 0.4, off: 0.4)
        let recording = SimulatedBench(file: .coinERM10mm, seed: 3).record(stimulus)
        let report = VibrationAnalysis.analyse(recording, kind: .erm, name: "coin")
        let back = try JSONDecoder().decode(VibrationReport.self, from: Data(report.json().utf8))
        #expect(back == report)
        #expect(report.text().contains("onset 10 %") && report.text().contains("samples"))
        let svg = VibrationPlot(recording: recording, kind: .erm, title: "coin <ERM>").render()
        #expect(svg.hasPrefix("<svg") && svg.contains("&lt;ERM>") && svg.components(separatedBy: "<polyline").count == 3)
    }

    @Test func stimulusParts() throws {
        for kind in [MotorFile.Kind.erm, .lra] {
            let id = Stimulus.identification(for: kind)
            #expect(id.seconds <= 30, "\(kind): \(id.seconds) s")
            #expect(id.parts.reduce(0) { $0 + $1.frameCount } == id.levels.count)
            let bench = try Stimulus.bench(for: kind, motor: kind == .erm ? .referenceERM : .referenceLRA)
            #expect(bench.parts.last?.kind == .breath && bench.seconds > id.seconds + 19)
        }
    }
}
