// Timing of one simulated session, judged against the simulated board's true clock.
// SPDX-License-Identifier: Apache-2.0

import MotorSession

/// The timing of one simulated session (``SimulatedSession`` or ``NaiveStreamer``), judged against the
/// simulated board's true clock, with the host session's repair counts. Encodes with the benchmark's
/// snake_case JSON keys.
public struct TimingResult: Sendable, Codable {
    /// The approach measured ("motorbreath", "naive host-timed streamer").
    public var name: String
    /// Frames in the breath.
    public var frames = 0
    /// Frames of the breath the board output.
    public var framesPlayed = 0
    /// |first frame's output - its true intended tick|, µs.
    public var startErrorUs = 0.0
    /// |output - true intended tick| per frame, µs.
    public var scheduleErrorUs = Percentiles()
    /// The same from 3 s into the breath on (once the clock estimate has settled on the board's rate).
    public var settledScheduleErrorUs = Percentiles()
    /// Mean signed error over the last 10 s of the session (how far the schedule has drifted), µs.
    public var driftAtEndUs = 0.0
    /// Frames the board output as 0 because their data was late (or never came).
    public var underruns = 0
    /// Frames output with a duty other than the one the host meant.
    public var wrongDuties = 0
    /// What the host session had to repair: frames resent, re-timings, reconnects; then its clock drift
    /// estimate (ppm) and how long preparing the board took (ms).
    public var retransmits = 0
    public var retimes = 0
    public var reconnects = 0
    public var clockDriftPPM = 0.0
    public var prepareMs = 0.0
    /// From the first CLOCK request to the first frame's intended time, ms.
    public var syncBeforeStartMs = 0.0
    /// Virtual time the session covered, and the wall time it took to simulate.
    public var simulatedSeconds = 0.0
    public var wallSeconds = 0.0

    /// An empty result for the approach `name`, filled in by the run.
    public init(name: String) { self.name = name }

    enum CodingKeys: String, CodingKey {
        case name, frames, framesPlayed = "frames_played", startErrorUs = "start_error_us"
        case scheduleErrorUs = "schedule_error_us", settledScheduleErrorUs = "settled_schedule_error_us"
        case driftAtEndUs = "drift_at_end_us", underruns, wrongDuties = "wrong_duties", retransmits, retimes
        case reconnects, clockDriftPPM = "clock_drift_ppm", prepareMs = "prepare_ms"
        case syncBeforeStartMs = "sync_before_start_ms"
        case simulatedSeconds = "simulated_seconds", wallSeconds = "wall_seconds"
    }
}

/// The session under test.
public struct TimingScenario: Sendable {
    public var pattern = "4-7-8"
    public var minutes = 10.0
    public var frameRate = 250
    public var impairments: SimBoardImpairments
    public var seed: UInt64 = 1
    /// Signed i16 frames with reverse drive (the simulated board has an H-bridge); false: u8.
    public var reverse = true

    /// A 10-minute 4-7-8 breath at 250 Hz with reverse drive, seed 1, over a link with `impairments`.
    public init(impairments: SimBoardImpairments) { self.impairments = impairments }
}

import SimBoard
public typealias SimBoardImpairments = LinkImpairments
