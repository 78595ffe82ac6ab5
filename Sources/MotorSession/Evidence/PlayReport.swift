// What a playback session did, measured on the board's clock where it can be.
// SPDX-License-Identifier: Apache-2.0

/// Final numbers of one playback; the CLI prints it and `--json` serialises it.
public struct PlayReport: Sendable, Codable {
    public var framesTotal = 0
    /// Frame values transmitted, retransmissions included.
    public var framesSent = 0
    public var retransmits = 0
    /// Frames sent again as REPLACE because the breath changed while they were buffered.
    public var replaced = 0
    /// Of those, frames the board had output before their REPLACE arrived: they played what was sent for them
    /// before, and the change took effect from the next frame (a live change is sent from the first frame the
    /// board may not yet have output, so a few arrive too late by design). Not counted in `lateArrivals`.
    public var replacedTooLate = 0
    /// Frames the board reported as output (PLAYED), underrun slots included.
    public var framesPlayed = 0
    /// Frames of the host's schedule the motor did not play as scheduled, over the whole session and
    /// every reconnect: underrun slots, frames output late (more than half a frame period), blocks whose
    /// duties were not the host's, and
    /// frames skipped around a reconnect. Judged from the board's PLAYED evidence against the schedule as
    /// it stood (a pause, a seek or a change of pace changes the schedule; it loses nothing). Frames whose
    /// PLAYED report never arrived are counted in `unreported`, not here. The goal is 0.
    public var framesLost = 0
    public var underruns = 0
    /// Frames that reached the board after their slot and were dropped there.
    public var lateArrivals = 0
    /// Frames the board output after their scheduled tick.
    public var playedLate = 0
    /// PLAYED blocks whose duty CRC did not match what the host rendered (underrun zeros included).
    public var dutyMismatches = 0
    /// PLAYED blocks (or, in simulation, frames) where a value the host never sent reached the motor: a
    /// mismatch no run of underrun zeros explains. The goal is 0.
    public var wrongDuties = 0
    /// PLAYED blocks that started before the previous one ended (frames reported twice or out of order).
    public var outOfOrder = 0
    /// Frames whose PLAYED report never arrived (lost on the line); their duties could not be checked.
    public var unreported = 0
    public var naks = 0
    /// Frames the board dropped for a bad CRC (its counter) plus frames the host could not decode.
    public var crcErrors = 0
    public var hostRxErrors = 0
    public var reconnects = 0
    /// Why each reconnect was needed, in order.
    public var reconnectReasons: [String] = []
    /// Times the board's failsafe fired during the session (each one followed by a re-prepare).
    public var failsafeTrips = 0
    /// Longest silence caused by a reconnect, ms (last frame before to first frame after).
    public var reconnectGapMs = 0.0
    /// Frames skipped over by reconnects (the breath resumes where it should be by then).
    public var framesSkipped = 0
    public var retimes = 0
    public var prepareMs = 0.0
    /// First frame's output tick minus its scheduled tick, µs. A simulated board's are measured against its
    /// true clock; on hardware, against the board's own schedule (its PLAYED reports). Nil (absent in JSON,
    /// "unknown" in text) when nothing measured them: frame 0's report never came, no frame was judged,
    /// no clock estimate was made, no CLOCK exchange answered. Never 0 for "not measured".
    public var startErrorUs: Double?
    public var scheduleErrorUs: Percentiles?
    public var clockDriftPPM: Double?
    public var rttUs: Percentiles?
    /// The longest the host went without writing to the board: what its failsafe saw of host stalls.
    public var hostLongestSilenceMs = 0.0
    /// Bytes on the wire each way (framing included): the link's load is bytes x 10 bits / baud / seconds.
    public var bytesSent = 0
    public var bytesReceived = 0
    public var interrupted = false
    public var motorOffAtExit = false
    /// Why the session ended early (nil when it played to the end or was interrupted).
    public var error: String?
    /// The calibration profile the breath was shaped for (board id and spot); nil without one.
    public var profile: String?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case framesTotal = "frames_total", framesSent = "frames_sent", retransmits, replaced, replacedTooLate = "replaced_too_late"
        case framesPlayed = "frames_played", framesLost = "frames_lost", underruns, lateArrivals = "late_arrivals", playedLate = "played_late"
        case dutyMismatches = "duty_mismatches", wrongDuties = "wrong_duties", outOfOrder = "out_of_order", unreported, naks
        case crcErrors = "crc_errors", hostRxErrors = "host_rx_errors", reconnects, reconnectReasons = "reconnect_reasons", failsafeTrips = "failsafe_trips"
        case reconnectGapMs = "reconnect_gap_ms", framesSkipped = "frames_skipped", retimes, prepareMs = "prepare_ms"
        case startErrorUs = "start_error_us", scheduleErrorUs = "schedule_error_us", clockDriftPPM = "clock_drift_ppm"
        case rttUs = "rtt_us", hostLongestSilenceMs = "host_longest_silence_ms", interrupted
        case bytesSent = "bytes_sent", bytesReceived = "bytes_received"
        case motorOffAtExit = "motor_off_at_exit", error, profile
    }
}

/// p50 / p99 / max and min of a set of values.
public struct Percentiles: Sendable, Codable, Equatable {
    public var min = 0.0
    public var p50 = 0.0
    public var p99 = 0.0
    public var max = 0.0
    public var count = 0

    public init() {}

    /// The percentiles of `values`, or nil when there are none (nothing was measured).
    public init?(measured values: [Double]) {
        guard !values.isEmpty else { return nil }
        self.init(values)
    }

    /// Self, or nil when it rests on no value.
    public var measured: Percentiles? { count > 0 ? self : nil }

    public init(_ values: [Double]) {
        guard !values.isEmpty else { return }
        let s = values.sorted()
        func at(_ q: Double) -> Double { s[Swift.min(s.count - 1, Int((q * Double(s.count - 1)).rounded()))] }
        min = s[0]
        p50 = at(0.5)
        p99 = at(0.99)
        max = s[s.count - 1]
        count = s.count
    }
}
