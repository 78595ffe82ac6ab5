// An adaptive up-down staircase (as in audiometry): the level goes down after `downAfter` positive
// answers in a row and up after a negative one; steps halve at the first reversals; it stops after a
// number of reversals and estimates the threshold as the mean of the last reversal levels.
// Pure: no clock, no I/O, no randomness.
// SPDX-License-Identifier: Apache-2.0

/// Settings of a staircase.
public struct StaircaseRule: Sendable, Equatable, Codable {
    /// First level presented.
    public var start: Double
    /// First step size; halved at each reversal until `minStep`.
    public var step: Double
    public var minStep: Double
    /// Levels are kept inside this range.
    public var low: Double
    public var high: Double
    /// Positive answers in a row before the level goes down (1: 1-up/1-down, targets the 50 % point;
    /// 2: 1-up/2-down, targets 70.7 %).
    public var downAfter: Int
    /// Up step divided by down step (1: symmetric; Kaernbach's weighted up-down uses p/(1-p)).
    public var upRatio: Double
    /// Stops after this many reversals...
    public var reversals: Int
    /// ...and averages the last this many reversal levels (the first ones, with big steps, are left out).
    public var averaged: Int
    /// Stops anyway after this many trials (a person who answers at random never converges).
    public var maxTrials: Int

    public init(start: Double, step: Double, minStep: Double, low: Double = 0, high: Double = 1,
                downAfter: Int = 1, upRatio: Double = 1, reversals: Int = 8, averaged: Int = 6, maxTrials: Int = 40) {
        self.start = start
        self.step = step
        self.minStep = minStep
        self.low = low
        self.high = high
        self.downAfter = downAfter
        self.upRatio = upRatio
        self.reversals = reversals
        self.averaged = averaged
        self.maxTrials = maxTrials
    }
}

/// What a staircase found.
public struct StaircaseResult: Sendable, Equatable, Codable {
    /// Mean of the last reversal levels (the threshold estimate).
    public var estimate: Double
    /// Standard deviation of those reversal levels (how much the answers wandered).
    public var spread: Double
    public var reversals: Int
    public var trials: Int
    /// The staircase ran out of trials before enough reversals: the estimate is weak.
    public var converged: Bool
}

/// An adaptive up-down staircase (as in audiometry): the level goes down after `rule.downAfter` positive
/// answers in a row and up after a negative one; steps halve at each reversal down to `rule.minStep`; it
/// stops after `rule.reversals` reversals (or `rule.maxTrials` trials) and estimates the threshold as the
/// mean of the last reversal levels. Pure: no clock, no I/O, no randomness.
///
///     var staircase = Staircase(StaircaseRule(start: 0.35, step: 0.08, minStep: 0.005))
///     while !staircase.done {
///         staircase.answer(positive: feels(staircase.level))
///     }
///     print(staircase.result.estimate, staircase.result.converged)
public struct Staircase: Sendable, Equatable {
    /// The settings it runs by.
    public let rule: StaircaseRule
    /// The level to present next.
    public private(set) var level: Double
    /// The current step size, the trials so far and the levels at which the answers reversed.
    public private(set) var step: Double
    public private(set) var trials = 0
    public private(set) var reversalLevels: [Double] = []
    /// Every level presented and the answer, in order.
    public private(set) var history: [(level: Double, positive: Bool)] = []
    private var positivesInRow = 0
    /// +1 last move up, -1 down, 0 none yet.
    private var lastDirection = 0

    /// A staircase at `rule.start` (kept inside `rule.low...rule.high`), stepping by `rule.step`.
    public init(_ rule: StaircaseRule) {
        self.rule = rule
        level = min(max(rule.start, rule.low), rule.high)
        step = rule.step
    }

    /// Enough reversals, or the trials ran out.
    public var done: Bool { reversalLevels.count >= rule.reversals || trials >= rule.maxTrials }

    /// Records the answer at the current level: `positive` means "above the threshold" (felt; or too
    /// strong, for a ceiling), and moves the level.
    public mutating func answer(positive: Bool) {
        guard !done else { return }
        trials += 1
        history.append((level, positive))
        var direction = 0
        if positive {
            positivesInRow += 1
            if positivesInRow >= rule.downAfter {
                direction = -1
                positivesInRow = 0
            }
        } else {
            positivesInRow = 0
            direction = 1
        }
        guard direction != 0 else { return }
        if lastDirection != 0 && direction != lastDirection {
            reversalLevels.append(level)
            step = max(rule.minStep, step / 2)
        }
        lastDirection = direction
        let move = direction > 0 ? step * rule.upRatio : -step
        level = min(max(level + move, rule.low), rule.high)
    }

    /// The estimate so far: mean and spread of the last `rule.averaged` reversal levels (the current level
    /// before any reversal).
    public var result: StaircaseResult {
        let last = Array(reversalLevels.suffix(rule.averaged))
        let pool = last.isEmpty ? [level] : last
        let mean = pool.reduce(0, +) / Double(pool.count)
        let variance = pool.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(pool.count - 1, 1))
        return StaircaseResult(estimate: mean, spread: variance.squareRoot(), reversals: reversalLevels.count,
                               trials: trials, converged: reversalLevels.count >= rule.reversals)
    }

    public static func == (a: Staircase, b: Staircase) -> Bool {
        a.rule == b.rule && a.level == b.level && a.trials == b.trials && a.reversalLevels == b.reversalLevels
    }
}
