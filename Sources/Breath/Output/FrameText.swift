// A rendering as text, written while it renders, a chunk at a time, so memory stays the same for a minute
// or a day: CSV rows, one JSON object of columns (rendered one after another: the renderer is
// deterministic), and the sample an SVG plot draws. `motorbreath render` writes them to its output file.
// SPDX-License-Identifier: Apache-2.0

/// A rendering as CSV or JSON text handed to `write` a chunk at a time (any byte sink: a file, a pipe, a
/// buffer), and the frames a plot draws. The renderer passed in is copied: it is not advanced.
///
///     try FrameText.csv(renderer) { bytes in try file.write(bytes) }
public enum FrameText {
    static let chunk = 16_384

    /// time_s,intensity,duty,felt: one row per frame, four decimals.
    public static func csv(_ renderer: FrameRenderer, write: ([UInt8]) throws -> Void) rethrows {
        var r = renderer
        try write(Array("time_s,intensity,duty,felt\n".utf8))
        var text: [UInt8] = []
        text.reserveCapacity(chunk * 32)
        while true {
            let frames = r.renderDetailed(count: chunk)
            if frames.isEmpty { break }
            text.removeAll(keepingCapacity: true)
            for f in frames {
                FixedDecimal.append(f.time, 4, to: &text)
                text.append(UInt8(ascii: ","))
                FixedDecimal.append(f.intensity, 4, to: &text)
                text.append(UInt8(ascii: ","))
                FixedDecimal.append(f.drive, 4, to: &text)
                text.append(UInt8(ascii: ","))
                FixedDecimal.append(f.felt, 4, to: &text)
                text.append(UInt8(ascii: "\n"))
            }
            try write(text)
        }
    }

    /// The JSON columns, each a frame's value as text.
    static let columns: [String: @Sendable (RenderedFrame) -> String] = [
        "duty": { $0.drive.description }, "felt": { $0.felt.description }, "intensity": { $0.intensity.description },
        "raw": { String($0.raw) }, "time_s": { $0.time.description },
    ]

    /// One JSON object, keys sorted: `settings` (each value already JSON text), "frames", and a column array
    /// per quantity (duty, felt, intensity, raw, time_s).
    public static func json(_ renderer: FrameRenderer, settings: [String: String], write: ([UInt8]) throws -> Void) rethrows {
        var fields = settings
        fields["frames"] = String(renderer.frameCount - renderer.position)
        let keys = (Array(fields.keys) + Array(columns.keys)).sorted()
        try write(Array("{".utf8))
        for (k, key) in keys.enumerated() {
            try write(Array(((k > 0 ? "," : "") + "\"\(key)\":").utf8))
            if let value = fields[key] {
                try write(Array(value.utf8))
            } else {
                try column(columns[key]!, of: renderer, write: write)
            }
        }
        try write(Array("}".utf8))
    }

    /// One column's JSON array, rendered afresh from `renderer`.
    static func column(_ value: (RenderedFrame) -> String, of renderer: FrameRenderer, write: ([UInt8]) throws -> Void) rethrows {
        var r = renderer
        var first = true
        try write(Array("[".utf8))
        while true {
            let frames = r.renderDetailed(count: chunk)
            if frames.isEmpty { break }
            var text = ""
            text.reserveCapacity(frames.count * 12)
            for f in frames {
                if !first { text += "," }
                first = false
                text += value(f)
            }
            try write(Array(text.utf8))
        }
        try write(Array("]".utf8))
    }

    /// Every n-th frame (about 2400 of them, what the plot draws) and the time of the last one.
    public static func plotSamples(_ renderer: FrameRenderer) -> (frames: [RenderedFrame], duration: Double) {
        var r = renderer
        let stride = max(1, (renderer.frameCount - renderer.position) / 2400)
        var kept: [RenderedFrame] = []
        var index = 0
        var last: Double?
        while true {
            let frames = r.renderDetailed(count: chunk)
            if frames.isEmpty { break }
            for f in frames {
                if index % stride == 0 { kept.append(f) }
                index += 1
            }
            last = frames.last?.time
        }
        return (kept, max(last ?? 1, 1e-3))
    }
}
