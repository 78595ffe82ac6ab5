// The live line for several boards: each board's name, frames played and buffer.
// SPDX-License-Identifier: Apache-2.0

import HostPlatform
import LiveText
import MotorControl
import MotorSession

/// The live line for several boards: each board's name, frames played and buffer, on a terminal; one
/// line a second otherwise is too much, so off a terminal it stays quiet until the end.
final class SeveralView: @unchecked Sendable {
    /// What the line shows of one board.
    struct Board: Equatable {
        var elapsed: Double
        var played: Int
        var total: Int
        var fill: Int?
        var state: String
    }

    private let names: [String]
    private let lock = Mutex()
    private var latest: [Board?]
    private var gone: Set<Int> = []
    private let line: LiveLine?
    /// The controls' values (intensity, pace), shown after the boards so a key's effect is seen.
    var controls: ControlHub?

    init(names: [String], quiet: Bool) {
        self.names = names
        latest = Array(repeating: nil, count: names.count)
        line = !quiet && Stderr.isTerminal ? LiveLine() : nil
    }

    /// Board `k`'s status (from its player's thread); the first board still playing redraws the line.
    func show(_ k: Int, _ s: LiveStatus) {
        let board = Board(elapsed: s.elapsed, played: s.framesPlayed, total: s.framesTotal, fill: s.board.map { Int($0.fill) }, state: s.state)
        let text: String? = lock.withLock {
            guard !gone.contains(k) else { return nil }
            latest[k] = board
            guard k == names.indices.first(where: { !gone.contains($0) }) else { return nil }
            return Self.text(names: names, latest, controls: controls?.summary)
        }
        if let text, let line { line.draw { [Span(Terminal.clip(text, to: $0))] } }
    }

    /// "12.3 s · left 3075/147325 buf 250 · right 3070/147325 buf 248".
    /// `controls`: the keys' values ("intensity 80%  pace 5.5/min"), last.
    static func text(names: [String], _ boards: [Board?], controls: String? = nil) -> String {
        let elapsed = boards.compactMap { $0 }.first { $0.state != "ended" }?.elapsed ?? 0
        let head = elapsed < 0 ? "starting in \(fixed(-elapsed, 1)) s" : "\(fixed(elapsed, 1)) s"
        let parts = zip(names, boards).map { name, b -> String in
            guard let b else { return "\(name) -" }
            if b.state != "playing" { return "\(name) \(b.state)" }
            return "\(name) \(b.played)/\(b.total)" + (b.fill.map { " buf \($0)" } ?? "")
        }
        return ([head] + parts + (controls.map { [$0] } ?? [])).joined(separator: " · ")
    }

    /// Board `k` failed for good: the line shows it ended while the others play on.
    func ended(_ k: Int) {
        lock.withLock {
            gone.insert(k)
            if latest[k] == nil { latest[k] = Board(elapsed: 0, played: 0, total: 0, fill: nil, state: "ended") }
            latest[k]?.state = "ended"
        }
    }

    func finish() { line?.finish() }
}

