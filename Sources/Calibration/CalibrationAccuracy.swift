// How well the calibration finds the hidden truth: over many seeded simulated people and motors, the
// error of each measurement (p50, p95, worst, with the worst seed) and the trials it needed.
// SPDX-License-Identifier: Apache-2.0

/// How well the calibration found the hidden truth for one task over many seeded simulated rigs: the error
/// percentiles (absolute and relative), the worst error with its seed, and the trials the task needed.
public struct AccuracyFigures: Sendable, Equatable {
    /// The task measured.
    public var task: CalibrationTask
    /// Absolute error of the estimate against the hidden truth: drive fraction; for the spin-up task, the
    /// lag in seconds.
    public var p50: Double
    public var p95: Double
    public var worst: Double
    public var worstSeed: UInt64
    /// Error relative to the truth, p50 and p95.
    public var relativeP50: Double
    public var relativeP95: Double
    /// Trials the task took: mean and most.
    public var trialsMean: Double
    public var trialsMax: Int
}

/// Measures how well the calibration finds the hidden truth: runs ``SimulatedRig``s over a range of seeds
/// and gives each task's ``AccuracyFigures`` and the trials a whole calibration took.
///
///     let (tasks, trialsMean, trialsMax) = CalibrationAccuracy.measure(seeds: 0..<200)
///     for figures in tasks { print(figures.task, figures.p95, figures.worstSeed) }
public enum CalibrationAccuracy {
    /// Runs seeds `seeds` and returns the figures of each task, and the mean trials of a whole calibration.
    public static func measure(seeds: Range<UInt64>) -> (tasks: [AccuracyFigures], trialsMean: Double, trialsMax: Int) {
        var errors: [CalibrationTask: [(error: Double, relative: Double, seed: UInt64, trials: Int)]] = [:]
        var totals: [Int] = []
        for seed in seeds {
            var rig = SimulatedRig.random(seed: seed)
            let procedure = rig.run()
            totals.append(procedure.trials)
            for (task, result) in procedure.results {
                let truth = rig.truth(task)
                // The spin-up task is judged by what it is for: the lag it yields, against the motor's.
                let estimate = task == .motorLag ? procedure.lagSeconds ?? .infinity : result.estimate
                let e = abs(estimate - truth)
                errors[task, default: []].append((e, e / truth, seed, result.trials))
            }
        }
        let figures = CalibrationTask.allCases.compactMap { task -> AccuracyFigures? in
            guard let list = errors[task], !list.isEmpty else { return nil }
            let e = list.map(\.error).sorted()
            let rel = list.map(\.relative).sorted()
            let worst = list.max { $0.error < $1.error }!
            return AccuracyFigures(task: task, p50: percentile(e, 0.5), p95: percentile(e, 0.95), worst: worst.error,
                                   worstSeed: worst.seed, relativeP50: percentile(rel, 0.5), relativeP95: percentile(rel, 0.95),
                                   trialsMean: Double(list.map(\.trials).reduce(0, +)) / Double(list.count),
                                   trialsMax: list.map(\.trials).max()!)
        }
        return (figures, Double(totals.reduce(0, +)) / Double(max(totals.count, 1)), totals.max() ?? 0)
    }

    /// The `q` quantile of sorted values (nearest rank).
    static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))]
    }
}
