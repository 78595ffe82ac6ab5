// The terminal on standard error: its width, the columns text takes on it, whether to colour, and
// giving the cursor and colours back on every way out.
// SPDX-License-Identifier: Apache-2.0

import Glibc
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

    // MARK: Columns

    /// Display columns of `text`, not bytes or characters: "█", "·" and "µ" take one, CJK and emoji two,
    /// combining marks and control characters none.
    static func columns(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    static func columns(of s: Unicode.Scalar) -> Int {
        let v = s.value
        if v >= 0x20 && v < 0x7F { return 1 }  // printable ASCII, most of every line
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if s.properties.isEmojiPresentation || wide.contains(where: { $0.contains(v) }) { return 2 }
        return 1
    }

    /// East Asian wide and fullwidth blocks (Hangul Jamo, CJK, Hangul syllables, fullwidth forms).
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// `text` if it takes at most `limit` columns, else its longest prefix that leaves room for "…".
    static func clip(_ text: String, to limit: Int) -> String {
        guard columns(of: text) > limit else { return text }
        guard limit > 0 else { return "" }
        var out = ""
        var used = 0
        for character in text {  // whole characters: a combining mark stays with its letter
            let w = columns(of: String(character))
            if used + w > limit - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

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
