// What a profile read back from disk may hold: every field within the ranges `calibrate` produces, so a
// hand-edited or damaged profile is refused with the field named instead of shaping frames to zero or full.
// SPDX-License-Identifier: Apache-2.0

extension CalibrationProfile {
    /// The lag a profile may carry, seconds: what the spin-up task can measure of a real ERM. A derived lag
    /// outside it is no measurement (the procedure gives none).
    public static let lagRange = 0.005...1.0

    /// The profile, or the first field that is out of range, named as in the file.
    public func checked() throws(ConfigError) -> CalibrationProfile {
        func bad(_ field: String, _ value: CustomStringConvertible, _ why: String) -> ConfigError {
            ConfigError("\(field) \(value) \(why)")
        }
        guard version == 1 else { throw bad("version", version, "is not 1 (made by a newer motorbreath?)") }
        guard board.count == 16, board.allSatisfy(\.isHexDigit) else { throw bad("board", "'\(board)'", "is not 16 hex digits") }
        guard motor == "erm" || motor == "lra" else { throw bad("motor", "'\(motor)'", "is not erm or lra") }
        let levels: [(String, Double)] = [("start_threshold", startThreshold), ("stop_threshold", stopThreshold),
                                           ("felt_threshold", feltThreshold), ("comfort_max", comfortMax)]
        for (field, value) in levels where !(value.isFinite && (0...1).contains(value)) {
            throw bad(field, value, "is outside 0...1 (a fraction of full drive)")
        }
        guard stopThreshold <= startThreshold else {
            throw bad("stop_threshold", stopThreshold, "is above start_threshold \(startThreshold) (a motor holds down to below where it starts)")
        }
        guard feltThreshold <= comfortMax else {
            throw bad("felt_threshold", feltThreshold, "is above comfort_max \(comfortMax)")
        }
        guard lagSeconds.isFinite && CalibrationProfile.lagRange.contains(lagSeconds) else {
            throw bad("lag_s", lagSeconds, "is outside \(CalibrationProfile.lagRange.lowerBound)...\(CalibrationProfile.lagRange.upperBound) s")
        }
        return self
    }
}
