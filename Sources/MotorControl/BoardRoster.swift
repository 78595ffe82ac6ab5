// Several boards playing in step: their names in order, which ended for good or are away for now, and
// which one's events speak for all (the first still playing).
// SPDX-License-Identifier: Apache-2.0

/// The boards of a session playing in step, and the one whose events stand for every board.
public struct BoardRoster: Equatable, Sendable {
    /// In order; empty: one board.
    public var names: [String] = []
    var ended: Set<String> = []
    var away: Set<String> = []

    public init(names: [String] = []) { self.names = names }

    /// The board whose events stand for every board: the first playing, else the first not ended for good
    /// (nil: one board).
    public var lead: String? {
        names.first { !ended.contains($0) && !away.contains($0) } ?? names.first { !ended.contains($0) } ?? names.first
    }

    /// Board `name` ended for good while the others play on.
    public mutating func end(_ name: String) { ended.insert(name) }

    /// Board `name` is reconnecting (`away`) or playing again.
    public mutating func setAway(_ name: String, _ isAway: Bool) {
        if isAway { away.insert(name) } else { away.remove(name) }
    }
}
