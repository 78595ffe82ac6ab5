// The columns text takes on a terminal, not bytes or characters (wide CJK and emoji, combining marks), and
// text clipped to a number of columns: what every live line is fitted with.
// SPDX-License-Identifier: Apache-2.0

/// Display columns of text as a terminal shows it ("█", "·" and "µ" one, CJK and emoji two, combining marks
/// and control characters none: glibc's wcswidth agrees), and text clipped to fit with "…".
///
///     TextColumns.columns(of: "呼吸 ok")      // 7
///     TextColumns.clip("inhale 3.2 s", to: 8)  // "inhale …"
public enum TextColumns {
    /// Display columns of `text`, not bytes or characters: "█", "·" and "µ" take one, CJK and emoji two,
    /// combining marks and control characters none.
    public static func columns(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    /// Display columns of one scalar.
    public static func columns(of s: Unicode.Scalar) -> Int {
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
    public static func clip(_ text: String, to limit: Int) -> String {
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
}
