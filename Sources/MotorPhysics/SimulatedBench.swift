// A bench in process: a physical motor played frame by frame, its accelerometer read on the board's clock.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation

/// A bench without a board: plays drive levels into a `PhysicalMotor` (each frame held 1/frameRate s) and
/// reads the motor file's accelerometer on its mounting at `sampleRateHz`, with seeded noise, clipping and
/// rounding to counts, stamping drive and samples with board ticks. What the simulated board's sensor does,
/// and what tests and identification use.
public struct SimulatedBench: Sendable {
    public var file: MotorFile
    public var seed: UInt64
    public var sampleRateHz: Double
    /// Board ticks per second.
    public var clockHz: Double = 1_000_000
    /// Noise-free readings, no rounding: the motor's own acceleration (for "true" figures).
    public var ideal = false

    public init(file: MotorFile, seed: UInt64, sampleRateHz: Double? = nil) {
        self.file = file
        self.seed = seed
        self.sampleRateHz = min(sampleRateHz ?? file.sensor.maxRateHz, file.sensor.maxRateHz)
    }

    /// Plays `stimulus` (carriers from its parts, or the file's board carrier) and records.
    public func record(_ stimulus: Stimulus) -> VibrationRecording {
        record(levels: stimulus.levels, frameRate: stimulus.frameRate) { stimulus.carrierHz(atFrame: $0, fallback: file.boardCarrierHz) }
    }

    /// Plays `levels` at `frameRate`, `carrier(frame)` for an LRA, and records. `observe` sees the motor
    /// after every frame (the true state, for tests).
    public func record(levels: [Double], frameRate: Int, carrier: (Int) -> Double? = { _ in nil },
                       observe: ((Int, any PhysicalMotor) -> Void)? = nil) -> VibrationRecording {
        var motor = file.makeMotor()
        var rng = SplitMix64(seed: seed)
        let spec = file.sensor
        var recording = VibrationRecording(clockHz: clockHz)
        let frameSeconds = 1 / Double(frameRate)
        let sampleSeconds = 1 / sampleRateHz
        var nextSample = 0.0, sampleIndex = 0
        var last: Double?
        recording.samples.reserveCapacity(Int(Double(levels.count) * frameSeconds * sampleRateHz) + 1)
        for (i, level) in levels.enumerated() {
            if level != last {
                recording.drive.append(DrivePoint(tick: tick(Double(i) * frameSeconds), level: level))
                last = level
            }
            if var lra = motor as? any CarrierDriven, let c = carrier(i) ?? file.boardCarrierHz, lra.carrierHz != c {
                lra.carrierHz = c
                motor = lra
            }
            let end = Double(i + 1) * frameSeconds
            var t = Double(i) * frameSeconds
            while nextSample < end - 1e-12 {
                motor.advance(drive: level, seconds: nextSample - t)
                t = nextSample
                recording.samples.append(AccelPoint(tick: tick(t), g: read(motor.acceleration, spec, &rng)))
                sampleIndex += 1
                nextSample = Double(sampleIndex) * sampleSeconds
            }
            motor.advance(drive: level, seconds: end - t)
            observe?(i, motor)
        }
        return recording
    }

    func tick(_ seconds: Double) -> UInt64 { UInt64((seconds * clockHz).rounded()) }

    func read(_ g: SIMD3<Double>, _ spec: AccelerometerSpec, _ rng: inout SplitMix64) -> SIMD3<Double> {
        if ideal { return g }
        let noise = SIMD3(gaussian(&rng), gaussian(&rng), gaussian(&rng)) * spec.noiseG
        let c = spec.counts(g, noise: noise)
        return SIMD3(Double(c.x), Double(c.y), Double(c.z)) * (spec.scaleMicroG / 1_000_000)
    }

    func gaussian(_ rng: inout SplitMix64) -> Double {
        let u = max(rng.unit(), 1e-300), v = rng.unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
