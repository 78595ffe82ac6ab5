// Motor-aware pre-compensation: chooses each frame's drive so the modeled felt amplitude reaches the
// intended one by the frame's end (overdrive on rises, braking on falls, a kick past the stall threshold).
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Turns intended felt amplitude into drive, one frame at a time, through an inverse of the motor model.
/// It runs the model alongside, so it always knows where the motor is.
public struct Shaper: Sendable {
    public let profile: MotorProfile
    public let compensate: Bool
    /// Negative drive (braking) may be used: the board can reverse the motor.
    public let allowReverse: Bool
    let dt: Double
    let eRise: Double, eFall: Double
    /// 1 / (1 - eRise) and 1 / (1 - eFall), for the render loop's fast guess (ShaperStep.swift).
    let riseGain: Double, fallGain: Double
    /// Frames whose fast guess of the drive was wrong and was replaced by the exact one (ShaperStep.swift).
    var guessesCorrected = 0
    var erm: ERMModel?
    var lra: LRAModel?
    /// A start from rest kicks with at least this multiple of the start threshold, a margin for motors
    /// that need a little more than their model says.
    public var kick = 1.5
    /// Below this multiple of the stop threshold the intended level is left unplayed from rest.
    public var startLevel = 0.5
    /// Keeps the drive within the motor's ceiling (DriveCeiling.swift), when it has one.
    var limiter: OverdriveBudget?

    public init(profile: MotorProfile, frameRate: Int, compensate: Bool = true, allowReverse: Bool = false,
                ceiling: DriveCeiling? = nil) {
        self.profile = profile
        self.compensate = compensate
        self.allowReverse = allowReverse
        dt = 1 / Double(frameRate)
        limiter = ceiling.map { OverdriveBudget($0, frameSeconds: 1 / Double(frameRate)) }
        switch profile {
        case .erm(let m):
            erm = m
            eRise = exp(-dt / m.riseTau)
            eFall = exp(-dt / m.fallTau)
        case .lra(let m):
            lra = m
            eRise = exp(-dt / m.tau)
            eFall = eRise
        }
        riseGain = 1 / (1 - eRise)
        fallGain = 1 / (1 - eFall)
    }

    /// Puts the modeled motor at a steady `level` (for planning leads).
    mutating func settle(at level: Double) {
        if erm != nil { erm!.amplitude = level >= erm!.stopThreshold ? level : 0 }
        if lra != nil { lra!.amplitude = level }
    }

    /// Modeled felt amplitude now (after the frames shaped so far).
    public var felt: Double { erm?.amplitude ?? lra?.amplitude ?? 0 }

    /// The drive (-1...1) for the next frame. `now` is what was aimed for at the frame's start,
    /// `next` what is aimed for at its end (a stalled rotor is only restarted when next > now). `quantize` maps a drive to what the board will really output.
    @inline(__always)
    public mutating func drive(now: Double, next: Double, quantize: (Double) -> Double) -> Double {
        var d: Double
        if !compensate {
            d = now
        } else if var m = erm {
            d = ermDrive(m, target: next, rising: next > now)
            if limiter != nil { d = limiter!.limit(d) }
            d = quantize(d)
            m.advance(drive: d, seconds: dt, riseFactor: eRise, fallFactor: eFall)
            erm = m
            return d
        } else {
            let m = lra!
            let gain = m.resonanceGain
            let target = (next - m.amplitude * eRise) / (1 - eRise)
            d = min(max(target / gain, 0), 1)
        }
        if limiter != nil { d = limiter!.limit(d) }
        d = quantize(d)
        advanceModel(drive: d)
        return d
    }

    /// The modeled motor one frame on under drive `d` (as output: after the limit and quantisation).
    @inline(__always)
    mutating func advanceModel(drive d: Double) {
        if erm != nil {
            erm!.advance(drive: d, seconds: dt, riseFactor: eRise, fallFactor: eFall)
        } else {
            let target = min(abs(d), 1) * lra!.resonanceGain
            lra!.amplitude = target + (lra!.amplitude - target) * eRise
        }
    }

    /// The modeled motor after a frame of drive `d` that was output (rendered earlier and played), the
    /// overdrive budget spent as it was: what `drive` does after choosing its drive.
    mutating func follow(drive d: Double) {
        advanceModel(drive: limiter != nil ? limiter!.limit(d) : d)
    }

    /// Exact one-frame inverse of `ERMModel`, clamped to what the drive can do.
    @inline(always)
    func ermDrive(_ m: ERMModel, target y: Double, rising: Bool) -> Double {
        let a = m.amplitude
        if y > a {
            var d = (y - a * eRise) / (1 - eRise)
            // On a fade into the stall zone, let a stalled rotor rest: restarting it there would
            // chatter between kick and brake. A rising intention, or one well above the zone, restarts it.
            if !m.spinning && !rising && y < 2 * m.stopThreshold { return 0 }
            if !m.spinning && d < kick * m.startThreshold {
                // A resting rotor cannot hold less than the stop threshold: stay off until the intended
                // level is worth a start, then kick past the start threshold.
                d = y < m.stopThreshold * startLevel ? 0 : max(d, kick * m.startThreshold)
            }
            return min(d, 1)
        }
        if y < a {
            let d = (y - a * eFall) / (1 - eFall)
            if d >= 0 { return d }
            guard allowReverse, a > 1e-4 else { return 0 }
            // Brake: (a + b·k)·eFall − b·k = y with k = fallTau / brakeTau (ERMModel) gives b = −d / k.
            return -min(-d * m.brakeTau / m.fallTau, 1)
        }
        return m.spinning || y >= m.startThreshold ? y : 0
    }
}
