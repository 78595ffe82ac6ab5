// What a playback session did, measured on the board's clock where it can be.

/// Final numbers of one playback; the CLI prints it and `--json` serialises it.
public struct PlayReport: Sendable, Codable {
    public var framesTotal = 0
    /// Frame values transmitted, retransmissions included.
    public var framesSent = 0
    public var retransmits = 0
    /// Frames the board reported as output (PLAYED), underrun slots included.
    public var framesPlayed = 0
    public var underruns = 0
    /// Frames that reached the board after their slot and were dropped there.
    public var lateArrivals = 0
    /// Frames the board output after their scheduled tick.
    public var playedLate = 0
    /// PLAYED blocks whose duty CRC did not match what the host rendered.
    public var dutyMismatches = 0
    /// PLAYED blocks that started before the previous one ended (frames reported twice or out of order).
    public var outOfOrder = 0
    /// Frames whose PLAYED report never arrived (lost on the line); their duties could not be checked.
    public var unreported = 0
    public var naks = 0
    /// Frames the board dropped for a bad CRC (its counter) plus frames the host could not decode.
    public var crcErrors = 0
    public var hostRxErrors = 0
    public var reconnects = 0
    /// Longest silence caused by a reconnect, ms (last frame before to first frame after).
    public var reconnectGapMs = 0.0
    /// Frames skipped over by reconnects (the breath resumes where it should be by then).
    public var framesSkipped = 0
    public var retimes = 0
    public var prepareMs = 0.0
    /// First frame's output tick minus its scheduled tick, µs. With `--simulate` these are measured
    /// against the simulated board's true clock; on hardware, against the board's own schedule.
    public var startErrorUs = 0.0
    public var scheduleErrorUs = Percentiles()
    public var clockDriftPPM = 0.0
    public var rttUs = Percentiles()
    public var interrupted = false
    public var motorOffAtExit = false

    public init() {}

    enum CodingKeys: String, CodingKey {
        case framesTotal = "frames_total", framesSent = "frames_sent", retransmits
        case framesPlayed = "frames_played", underruns, lateArrivals = "late_arrivals", playedLate = "played_late"
        case dutyMismatches = "duty_mismatches", outOfOrder = "out_of_order", unreported, naks
        case crcErrors = "crc_errors", hostRxErrors = "host_rx_errors", reconnects
        case reconnectGapMs = "reconnect_gap_ms", framesSkipped = "frames_skipped", retimes, prepareMs = "prepare_ms"
        case startErrorUs = "start_error_us", scheduleErrorUs = "schedule_error_us", clockDriftPPM = "clock_drift_ppm"
        case rttUs = "rtt_us", interrupted, motorOffAtExit = "motor_off_at_exit"
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
