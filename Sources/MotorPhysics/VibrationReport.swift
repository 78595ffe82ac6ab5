// What a vibration measurement found, as values with the samples each rests on: Codable (JSON) and text.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// One drive change held long enough to measure (`VibrationAnalysis.minimumHold`): its onset, peak, stop or
/// brake figures, each nil where it does not apply, and the samples the figures rest on.
public struct StepFigures: Sendable, Equatable, Codable {
    /// Which change of drive it was, and so which figures it has.
    public enum Kind: String, Sendable, Codable {
        /// From rest (or off) to a level: onset and peak.
        case start
        /// From a level to another level, both on: onset to the new level.
        case change
        /// From a level to off: stop time.
        case stop
        /// A reverse kick: brake time (to 10 % of the amplitude before the kick, through the kick and after).
        case brake
    }
    public var kind: Kind
    /// Seconds since the recording's first sample; the levels before and after.
    public var time: Double
    public var from: Double
    public var to: Double
    /// Time to 10 % and to 90 % of the way to the new steady amplitude, ms.
    public var onset10Ms: Double?
    public var onset90Ms: Double?
    /// The steady amplitude held (the mean over the hold's last quarter) and the largest, g.
    public var steadyG: Double?
    public var peakG: Double?
    /// Time from the drive's change to 10 % of the amplitude before it, ms.
    public var stopMs: Double?
    public var brakeMs: Double?
    /// Samples the figures rest on (the hold's, and for stop and brake until 10 %).
    public var samples: Int
}

/// A point of the drive-to-vibration curve: a level held, the steady amplitude it gave, its samples.
public struct CurvePoint: Sendable, Equatable, Codable {
    public var level: Double
    public var steadyG: Double
    public var samples: Int
}

/// An LRA's resonance from a carrier sweep: the frequency of the largest steady amplitude (a parabola
/// through the top three segments), the half-power bandwidth's quality where the sweep covers both sides,
/// and each segment's point.
public struct ResonanceFigures: Sendable, Equatable, Codable {
    public var resonanceHz: Double
    public var peakG: Double
    public var quality: Double?
    public var points: [SweepPoint]
    public var samples: Int
}

/// One sweep segment: its carrier, steady amplitude and samples.
public struct SweepPoint: Sendable, Equatable, Codable {
    public var carrierHz: Double
    public var steadyG: Double
    public var samples: Int
}

/// A vibration measurement's figures (`VibrationAnalysis.analyse`), to print or to write as JSON.
public struct VibrationReport: Sendable, Equatable, Codable {
    public var motor: String
    public var samples: Int
    public var sampleRateHz: Double
    public var lostSamples: Int
    public var windowMs: Double
    /// The sensor's noise, g rms over all axes, from the quiet samples before the first drive.
    public var noiseG: Double
    public var quietSamples: Int
    public var steps: [StepFigures]
    public var curve: [CurvePoint]
    public var resonance: ResonanceFigures?

    /// JSON, keys sorted.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The figures as lines of text.
    public func text() -> String {
        func f(_ v: Double?, _ d: Int = 1) -> String { v.map { String(format: "%.\(d)f", $0) } ?? "-" }
        var lines = ["vibration of \(motor): \(samples) samples at \(f(sampleRateHz, 0)) Hz, \(lostSamples) lost, "
            + "window \(f(windowMs)) ms, noise \(f(noiseG, 4)) g rms (\(quietSamples) quiet samples)"]
        for s in steps {
            var line = "  \(String(format: "%7.3f", s.time)) s \(s.kind.rawValue) \(f(s.from, 2)) -> \(f(s.to, 2)):"
            switch s.kind {
            case .start, .change:
                line += " onset 10 % \(f(s.onset10Ms)) ms, 90 % \(f(s.onset90Ms)) ms, steady \(f(s.steadyG, 3)) g, peak \(f(s.peakG, 3)) g"
            case .stop: line += " stop (10 %) \(f(s.stopMs)) ms"
            case .brake: line += " brake (10 %) \(f(s.brakeMs)) ms"
            }
            lines.append(line + " [\(s.samples) samples]")
        }
        if !curve.isEmpty {
            lines.append("  drive -> vibration: " + curve.map { "\(f($0.level, 2)): \(f($0.steadyG, 3)) g [\($0.samples)]" }.joined(separator: ", "))
        }
        if let r = resonance {
            lines.append("  resonance \(f(r.resonanceHz)) Hz, \(f(r.peakG, 3)) g, Q \(f(r.quality, 1)) [\(r.points.count) segments, \(r.samples) samples]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
