// The live line for several boards: each board's name, frames played and buffer.
// SPDX-License-Identifier: Apache-2.0

import HostPlatform
import LiveText
import MotorControl
import MotorSession

/// The live line for several boards: each board's name, frames played and buffer, on a terminal; one
/// line a second otherwise is too much, so off a terminal it stays quiet until the end.
final class SeveralView: @unchecked Sendable {
    typealias Board = SeveralLine.Board

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

    /// The line (``SeveralLine``).
    static func text(names: [String], _ boards: [Board?], controls: String? = nil) -> String {
        SeveralLine.text(names: names, boards, controls: controls)
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

