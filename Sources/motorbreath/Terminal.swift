// The terminal on standard error: its width, the columns text takes on it, whether to colour, and
// giving the cursor and colours back on every way out.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import LiveText
import Synchronization

enum Terminal {
    /// Columns of the terminal on stderr: TIOCGWINSZ, else $COLUMNS, else 80.
    static func width() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return Int(size.ws_col) }
        if let env = getenv("COLUMNS"), let n = Int(String(cString: env)), n > 0 { return n }
        return 80
    }

    /// The terminal's own palette (SGR 30-37, never 24-bit), unless NO_COLOR is set and not empty
    /// (no-color.org) or TERM is dumb.
    static var coloursAllowed: Bool {
        if let v = getenv("NO_COLOR"), v.pointee != 0 { return false }
        if let t = getenv("TERM"), String(cString: t) == "dumb" { return false }
        return true
    }

    /// Display columns of `text` (``TextColumns``).
    static func columns(of text: String) -> Int { TextColumns.columns(of: text) }

    /// `text` clipped to `limit` columns with "…" (``TextColumns``).
    static func clip(_ text: String, to limit: Int) -> String { TextColumns.clip(text, to: limit) }

    // MARK: Cursor and colours

    static let cursorHidden = Atomic<Bool>(false)
    private static let exitHookInstalled = Atomic<Bool>(false)

    /// Hides the cursor until `restore()`. An exit hook restores it too, on any path that calls exit().
    static func hideCursor() {
        if !exitHookInstalled.exchange(true, ordering: .relaxed) {
            atexit { Terminal.restore() }
        }
        if !cursorHidden.exchange(true, ordering: .relaxed) { Stderr.write("\u{1B}[?25l") }
    }

    /// Default colours, cursor shown. Does nothing if the cursor was not hidden.
    static func restore() {
        if cursorHidden.exchange(false, ordering: .relaxed) { Stderr.write("\u{1B}[0m\u{1B}[?25h") }
    }

    /// The same from a signal handler: no allocation, one write(2). The live line is erased (the
    /// cursor sits at its start), so the shell's prompt lands on a clean line.
    static func restoreFromSignalHandler() {
        guard cursorHidden.exchange(false, ordering: .relaxed) else { return }
        let bytes: StaticString = "\r\u{1B}[2K\u{1B}[0m\u{1B}[?25h"
        _ = write(2, bytes.utf8Start, bytes.utf8CodeUnitCount)
    }
}
