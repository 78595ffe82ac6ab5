// The one line a command prints when a session ends: frames played, lost, underruns, late, start error and
// the motor's state, with "unknown" for a figure the session could not measure.
// SPDX-License-Identifier: Apache-2.0

import MotorSession

/// The end-of-session line every playing command prints on stderr (play, serve, palette, several boards).
///
///     EndLine.text(report)            // "played 1075/1075 frames, 0 lost, 0 underruns, 0 late, start error 192 µs, motor off"
///     EndLine.text(report, board: "left")   // "left: played ..."
public enum EndLine {
    public static func text(_ r: PlayReport, board: String? = nil) -> String {
        let start = r.startErrorUs.map { "\(Int($0.rounded())) µs" } ?? "unknown"
        var line = "played \(r.framesPlayed)/\(r.framesTotal) frames, \(r.framesLost) lost, \(r.underruns) underruns, "
            + "\(r.playedLate) late, start error \(start), motor \(r.motorOffAtExit ? "off" : "STATE UNKNOWN")"
        if let board {
            line = "\(board): " + line
            if let error = r.error { line += ", " + error }
        }
        return line
    }
}
