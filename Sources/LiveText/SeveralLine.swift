// The live line of several boards played in step: the breath's time, then each board's frames played and
// buffer (or its state while it is away), then the controls' values.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The live line of several boards: "12.3 s · left 3075/147325 buf 250 · right 3070/147325 buf 248".
public enum SeveralLine {
    /// What the line shows of one board.
    public struct Board: Equatable, Sendable {
        public var elapsed: Double
        public var played: Int
        public var total: Int
        public var fill: Int?
        public var state: String

        /// One board's figures: breath time, frames played of the total, buffer fill, state ("playing", "ended").
        public init(elapsed: Double, played: Int, total: Int, fill: Int?, state: String) {
            self.elapsed = elapsed
            self.played = played
            self.total = total
            self.fill = fill
            self.state = state
        }
    }

    /// The line: the first board still playing gives the time; `controls` (the keys' values) come last.
    public static func text(names: [String], _ boards: [Board?], controls: String? = nil) -> String {
        let elapsed = boards.compactMap { $0 }.first { $0.state != "ended" }?.elapsed ?? 0
        let head = elapsed < 0 ? "starting in \(String(format: "%.1f", -elapsed)) s" : "\(String(format: "%.1f", elapsed)) s"
        let parts = zip(names, boards).map { name, b -> String in
            guard let b else { return "\(name) -" }
            if b.state != "playing" { return "\(name) \(b.state)" }
            return "\(name) \(b.played)/\(b.total)" + (b.fill.map { " buf \($0)" } ?? "")
        }
        return ([head] + parts + (controls.map { [$0] } ?? [])).joined(separator: " · ")
    }
}
