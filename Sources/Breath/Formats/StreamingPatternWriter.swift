// The one shape every pattern-file exporter has: it writes a piece at a time, and gathers the pieces into
// one string for small patterns and tests.
// SPDX-License-Identifier: Apache-2.0

/// A file format written a piece at a time (`write`), so a pattern of 10^6 events needs no more memory than
/// one of ten; `text` is the same bytes as one string.
///
///     let ahap = AHAPExport.text(pattern, duration: 16)   // what AHAPExport.write hands its sink, joined
public protocol StreamingPatternWriter {
    /// `pattern` in the format, lasting `duration` when that is longer than its events, handed to `sink`.
    static func write(_ pattern: HapticPattern, duration: Double?, description: String,
                      to sink: (String) throws -> Void) rethrows
}

extension StreamingPatternWriter {
    /// The same bytes as `write`, as one string.
    public static func text(_ pattern: HapticPattern, duration: Double? = nil, description: String = "made by motorbreath") -> String {
        var out = ""
        write(pattern, duration: duration, description: description) { out += $0 }
        return out
    }
}
