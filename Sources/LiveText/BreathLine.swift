// The breath view of play: the phase word, the whole seconds left, and a bar across the rest of the line
// that swells and fades with the intended intensity, in the terminal's own colours. No link statistics.
// SPDX-License-Identifier: Apache-2.0

/// The breath view: the phase, the seconds left and a calm bar that swells and fades, in the palette's colours.
public enum BreathLine {
    /// Palette colours (SGR): inhale cyan, exhale blue, the holds dim; an AHAP file ("pattern") cyan.
    public static func colour(of phase: String) -> String? {
        switch phase {
        case "inhale", "pattern": "36"
        case "exhale": "34"
        default: "2"
        }
    }

    /// The line for `columns` columns: "inhale     3 s  " then the bar, centred in the room left so that
    /// it grows from the middle outwards and shrinks back to it.
    public static func spans(phase: String, remaining: Double, intensity: Double, columns: Int) -> [Span] {
        let colour = colour(of: phase)
        let seconds = Int(max(0, remaining).rounded(.up))
        let label = "\(phase.padding(8)) \(String(seconds).leftPad(3)) s  "
        let room = columns - TextColumns.columns(of: label)
        guard room > 0 else { return [Span(label, colour: colour)] }
        let filled = Int((max(0, min(1, intensity)) * Double(room)).rounded())
        return [
            Span(label, colour: colour),
            Span(String(repeating: " ", count: (room - filled) / 2)),
            Span(String(repeating: "█", count: filled), colour: colour),
        ]
    }
}

/// A piece of a line and its colour: an SGR parameter of the terminal's own palette ("36" cyan, "2" dim).
public struct Span: Equatable, Sendable {
    public var text: String
    public var colour: String?

    /// `text`, in `colour` when given.
    public init(_ text: String, colour: String? = nil) {
        self.text = text
        self.colour = colour
    }
}
