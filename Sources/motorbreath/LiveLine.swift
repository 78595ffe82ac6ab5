// One terminal line redrawn in place (the live line of play, the progress of bench and benchmark):
// fitted to the width, whole again after any resize, the cursor hidden while it is drawn.
//
// How it stays on one row whatever the terminal does:
// - It takes at most width - 1 columns. A character in the last column leaves some terminals waiting
//   to wrap and makes others wrap at once; the last column is never written.
// - After each draw the cursor is parked at the line's first column, and each draw erases from there to
//   the end of the screen. When the terminal narrows, one that truncates (xterm) cuts the line; one that
//   reflows (tmux, VTE, kitty) flows the rest onto the rows below and keeps the cursor at the line's
//   start, so the next draw erases them. (When the reflow pushes the line's start into tmux's history,
//   tmux puts the cursor on the top row instead: the screen is clean again after the next draw, and the
//   part in the scrollback stays there, out of reach of any cursor motion.)
// - The erase starts at column 1, not 0: erasing to the end of the screen from the top-left corner makes
//   tmux push the whole screen into its history (scroll-on-clear). Column 0 is overwritten by the text.
// SPDX-License-Identifier: Apache-2.0

import LiveText

final class LiveLine {
    private var width = 0  // 0: not read yet
    private var last: ((Int) -> [Span])?
    private var drawn = false
    private let colours = Terminal.coloursAllowed
    private static let erase = "\r\u{1B}[C\u{1B}[J\r"

    /// Draws the spans `make` returns for the columns the line may take (clipped if they are still too wide).
    func draw(_ make: @escaping (Int) -> [Span]) {
        if width == 0 {
            Signals.followResizes()
            width = Terminal.width()
        }
        if Signals.takeResize() { width = Terminal.width() }
        if !drawn {
            Terminal.hideCursor()
            drawn = true
        }
        last = make
        Stderr.write(Self.erase + render(make(available)) + "\r")
    }

    /// Leaves the last line (fitted to the width of now) with the cursor on the row below, or erases it,
    /// and gives the cursor and colours back. Safe to call more than once.
    func finish(keep: Bool = true) {
        guard drawn else { return }
        drawn = false
        if Signals.takeResize() { width = Terminal.width() }
        if keep, let last {
            Stderr.write(Self.erase + render(last(available)) + "\n")
        } else {
            Stderr.write(Self.erase + "\u{1B}[K")
        }
        last = nil
        Terminal.restore()
    }

    private var available: Int { max(1, width - 1) }

    /// The spans as terminal output, cut at the available columns; colours reset after each span.
    private func render(_ spans: [Span]) -> String {
        var out = ""
        var room = available
        for span in spans where room > 0 {
            let text = Terminal.clip(span.text, to: room)
            room -= Terminal.columns(of: text)
            if let c = span.colour, colours, !text.isEmpty {
                out += "\u{1B}[\(c)m" + text + "\u{1B}[0m"
            } else {
                out += text
            }
        }
        return out + "\u{1B}[K"
    }
}
