// The felt skew of boards in step: each board's drive (its drive changes on one time base) run through a
// motor model, and the instants its felt amplitude crosses half strength compared across the boards.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession

/// When a board's felt vibration crosses a level, from its drive through a motor model: the felt side of the
/// in-step skew (the drive's skew is judged frame by frame; this is what the skin gets of it).
public enum FeltSkew {
    /// The instants (ns on the changes' time base) the felt amplitude of `model` driven by `changes` (level
    /// -32767...32767, held until the next change) crosses `level`, up or down, stepped every `stepNs`.
    public static func crossings(_ changes: [(ns: UInt64, level: Int16)], model: some MotorModel, level: Double = 0.5,
                                 stepNs: UInt64 = 50_000) -> [(ns: UInt64, up: Bool)] {
        var m = model
        var out: [(ns: UInt64, up: Bool)] = []
        guard var t = changes.first?.ns else { return out }
        var above = false
        for (k, c) in changes.enumerated() {
            let end = k + 1 < changes.count ? changes[k + 1].ns : c.ns + 500_000_000  // the last level for 0.5 s
            let drive = Double(c.level) / 32767
            t = max(t, c.ns)
            while t < end {
                let dt = min(stepNs, end - t)
                m.advance(drive: drive, seconds: Double(dt) / 1e9)
                t += dt
                if (m.amplitude >= level) != above {
                    above.toggle()
                    out.append((t, above))
                }
            }
        }
        return out
    }

    /// Per crossing, the latest board's instant minus the earliest's, µs (the crossings paired in order;
    /// boards with a different number of crossings are compared over the first ones they share).
    public static func skewUs(_ boards: [[(ns: UInt64, up: Bool)]]) -> Percentiles {
        let n = boards.map(\.count).min() ?? 0
        var skews: [Double] = []
        for i in 0..<n {
            let ts = boards.map { $0[i].ns }
            guard boards.allSatisfy({ $0[i].up == boards[0][i].up }) else { continue }
            skews.append(Double(ts.max()! - ts.min()!) / 1000)
        }
        return Percentiles(skews)
    }
}
