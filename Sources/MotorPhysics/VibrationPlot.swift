// An SVG plot of a vibration measurement: the drive and the measured vibration against time.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// An SVG plot of a measurement: the drive (−1...1, reverse below the axis) and the measured amplitude
/// (`VibrationEnvelope`, scaled to its largest value, which the legend gives in g) against time, to see at a
/// glance how the motor follows. Breath's `SVGPlot` draws a rendering's frames with a modeled felt line, so
/// this one, drawing samples, is its own (same size, colours and grid).
public struct VibrationPlot {
    let envelope: VibrationEnvelope
    let drive: [DrivePoint]
    let title: String
    let width = 1200.0, height = 420.0
    let left = 60.0, right = 20.0, top = 50.0, bottom = 50.0

    public init(recording: VibrationRecording, kind: MotorFile.Kind, carrierHz: Double? = nil, title: String) {
        envelope = VibrationEnvelope(recording, linear: kind == .lra,
                                     windowSeconds: VibrationEnvelope.window(kind: kind, carrierHz: carrierHz))
        drive = recording.drive
        self.title = title
    }

    public func render(maxPoints: Int = 4000) -> String {
        let duration = max(envelope.times.last ?? 1, 1e-3)
        let peak = max(envelope.values.max() ?? 0, 1e-9)
        let plotW = width - left - right, plotH = height - top - bottom
        func x(_ t: Double) -> String { f(left + t / duration * plotW) }
        func y(_ v: Double) -> String { f(top + (1 - (v + 0.25) / 1.25) * plotH) }
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="#fcfcfa"/>
        <text x="\(left)" y="24" font-size="16" fill="#222">\(title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;"))</text>

        """
        for v in stride(from: -0.25, through: 1.0, by: 0.25) {
            svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y(v))\" y2=\"\(y(v))\" stroke=\"\(v == 0 ? "#999" : "#ddd")\"/>\n"
            svg += "<text x=\"\(left - 8)\" y=\"\(f(Double(y(v))! + 4))\" text-anchor=\"end\" fill=\"#555\">\(Int(v * 100))%</text>\n"
        }
        let step = [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60].first { duration / $0 <= 20 } ?? 120
        for t in stride(from: 0.0, through: duration, by: step) {
            svg += "<text x=\"\(x(t))\" y=\"\(height - bottom + 18)\" text-anchor=\"middle\" fill=\"#555\">\(f(t)) s</text>\n"
        }
        var d = ""
        for (i, p) in drive.enumerated() {
            let t = envelope.time(ofTick: p.tick)
            if i > 0 { d += "\(x(t)),\(y(drive[i - 1].level)) " }
            d += "\(x(t)),\(y(p.level)) "
        }
        if let last = drive.last { d += "\(x(duration)),\(y(last.level))" }
        svg += "<polyline fill=\"none\" stroke=\"#4a7fd4\" stroke-width=\"1\" points=\"\(d)\"/>\n"
        let stride = max(1, envelope.values.count / maxPoints)
        var e = ""
        for i in Swift.stride(from: 0, to: envelope.values.count, by: stride) {
            e += "\(x(envelope.times[i])),\(y(envelope.values[i] / peak)) "
        }
        svg += "<polyline fill=\"none\" stroke=\"#e0701b\" stroke-width=\"2\" points=\"\(e)\"/>\n"
        let legend = [("drive", "#4a7fd4"), ("measured vibration (100 % = \(String(format: "%.3f", peak)) g)", "#e0701b")]
        for (k, (name, color)) in legend.enumerated() {
            let lx = width - right - 520 + Double(k) * 140
            svg += "<line x1=\"\(f(lx))\" x2=\"\(f(lx + 24))\" y1=\"20\" y2=\"20\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            svg += "<text x=\"\(f(lx + 30))\" y=\"24\" fill=\"#333\">\(name)</text>\n"
        }
        return svg + "</svg>\n"
    }

    func f(_ v: Double) -> String { String(format: "%.1f", v) }
}
