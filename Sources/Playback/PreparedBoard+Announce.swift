// What play says once its boards are prepared: each board, its motor and ceiling, the profile it plays with.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Calibration
import MotorSession
import MotorWire

extension Playback.PreparedBoard {
    /// The lines `motorbreath play` writes to stderr for this board ("board: ..., ERM, drive ceiling 60 %,
    /// prepared in 41 ms", the profile, a note for an LRA board without a resonance), each prefixed with the
    /// board's name when several play (`named`).
    public func announcement(named: Bool) -> [String] {
        let p = prepared, name = named ? "\(self.name): " : ""
        let ceiling = p.limits.map { ", drive ceiling \(Int((Double($0.ceilingLevel) / 327.67).rounded())) %" } ?? ""
        var lines = ["\(name)board: \(p.info.displayName), \(p.info.motorKind == .lra ? "LRA" : "ERM")\(ceiling), prepared in \(Int(Double(p.prepareNs) / 1e6)) ms"]
        if let c = shaping.calibrated { lines.append("profile: \(c.name): \(c.feltRangeText)") }
        if case .lra = shaping.motor, p.info.lraResonanceDeciHz == 0 {
            lines.append("motorbreath: note: the LRA board reports no resonance frequency; its carrier may be off resonance")
        }
        return lines
    }
}
