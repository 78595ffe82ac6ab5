// `render`'s CSV, JSON and SVG written while rendering, a chunk at a time, so memory stays the same for a
// minute or a day (the JSON columns are rendered one after another; the renderer is deterministic).
// SPDX-License-Identifier: Apache-2.0

import Breath

enum FrameWriters {
    static let chunk = 16_384

    /// time_s,intensity,duty,felt: one row per frame, four decimals.
    static func csv(_ renderer: FrameRenderer, to out: OutputFile) throws {
        var r = renderer
        try out.write("time_s,intensity,duty,felt\n")
        var text: [UInt8] = []
        text.reserveCapacity(chunk * 32)
        while true {
            let frames = r.renderDetailed(count: chunk)
            if frames.isEmpty { break }
            text.removeAll(keepingCapacity: true)
            for f in frames {
                Fixed.append(f.time, 4, to: &text)
                text.append(UInt8(ascii: ","))
                Fixed.append(f.intensity, 4, to: &text)
                text.append(UInt8(ascii: ","))
                Fixed.append(f.drive, 4, to: &text)
                text.append(UInt8(ascii: ","))
                Fixed.append(f.felt, 4, to: &text)
                text.append(UInt8(ascii: "\n"))
            }
            try out.write(text)
        }
    }

    /// One JSON object, keys sorted: the settings, and a column array per quantity.
    static func json(_ renderer: FrameRenderer, settings: [String: String], to out: OutputFile) throws {
        let columns: [String: (RenderedFrame) -> String] = [
            "duty": { $0.drive.description }, "felt": { $0.felt.description }, "intensity": { $0.intensity.description },
            "raw": { String($0.raw) }, "time_s": { $0.time.description },
        ]
        var fields = settings
        fields["frames"] = String(renderer.frameCount - renderer.position)
        let keys = (Array(fields.keys) + Array(columns.keys)).sorted()
        try out.write("{")
        for (k, key) in keys.enumerated() {
            try out.write((k > 0 ? "," : "") + "\"\(key)\":")
            if let value = fields[key] {
                try out.write(value)
                continue
            }
            let column = columns[key]!
            var r = renderer
            var first = true
            try out.write("[")
            while true {
                let frames = r.renderDetailed(count: chunk)
                if frames.isEmpty { break }
                var text = ""
                text.reserveCapacity(frames.count * 12)
                for f in frames {
                    if !first { text += "," }
                    first = false
                    text += column(f)
                }
                try out.write(text)
            }
            try out.write("]")
        }
        try out.write("}")
    }

    /// Every n-th frame (about 2400 of them, what the plot draws) and the time of the last one.
    static func plotSamples(_ renderer: FrameRenderer) -> (frames: [RenderedFrame], duration: Double) {
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

/// Numbers with a fixed number of decimals, exactly as printf's "%.Nf" writes them, without its cost.
enum Fixed {
    static let scales: [Double] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    static func append(_ x: Double, _ digits: Int, to out: inout [UInt8]) {
        let scale = scales[digits]
        let m = abs(x) * scale
        let whole = m.rounded(.down)
        let fraction = m - whole
        // Near a tie the product's rounding could decide differently from printf's exact decimal: use printf.
        guard x.isFinite, m < 1e9, abs(fraction - 0.5) > 1e-6 else {
            out.append(contentsOf: fixed(x, digits).utf8)
            return
        }
        let n = UInt64(fraction > 0.5 ? whole + 1 : whole)
        if x.sign == .minus { out.append(UInt8(ascii: "-")) }
        let unit = UInt64(scale)
        appendDigits(n / unit, minimum: 1, to: &out)
        if digits > 0 {
            out.append(UInt8(ascii: "."))
            appendDigits(n % unit, minimum: digits, to: &out)
        }
    }

    /// Decimal digits of `value` (below 10^18), zero-padded to `minimum`.
    private static func appendDigits(_ value: UInt64, minimum: Int, to out: inout [UInt8]) {
        var power: UInt64 = 1, count = 1
        while power <= value / 10 {
            power *= 10
            count += 1
        }
        for _ in count..<max(count, minimum) { out.append(UInt8(ascii: "0")) }
        while power > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / power % 10))
            power /= 10
        }
    }
}
