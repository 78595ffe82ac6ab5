// An SVG plot of a rendering: intended intensity, drive and modeled felt amplitude over time, the breath's
// phases shaded (`motorbreath render --format svg`).
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// An SVG plot of a rendering: the intended intensity (dashed), the drive (braking below the axis) and the
/// modeled felt amplitude over time, with the breath's phases shaded, to see at a glance what the shaping
/// does to a breath.
///
///     let samples = FrameText.plotSamples(renderer)
///     let svg = SVGPlot(frames: samples.frames, duration: samples.duration, plan: plan,
///                       title: "4-7-8", motor: "erm", compensated: true).render()
public struct SVGPlot {
    /// The frames drawn (a sample of the rendering: every n-th frame) and the time of its last frame.
    let frames: [RenderedFrame]
    let duration: Double
    let plan: BreathPlan?
    let title: String
    let motor: String
    let compensated: Bool

    let width = 1200.0, height = 420.0
    let left = 60.0, right = 20.0, top = 50.0, bottom = 50.0
    var plotW: Double { width - left - right }
    var plotH: Double { height - top - bottom }

    /// A plot of `frames` (see ``FrameText/plotSamples(_:)``) lasting `duration` seconds; `plan`'s phases
    /// shaded when given (an AHAP file has none).
    public init(frames: [RenderedFrame], duration: Double, plan: BreathPlan?, title: String, motor: String, compensated: Bool) {
        self.frames = frames
        self.duration = duration
        self.plan = plan
        self.title = title
        self.motor = motor
        self.compensated = compensated
    }

    /// The whole SVG document.
    public func render() -> String {
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="#fcfcfa"/>
        <text x="\(left)" y="24" font-size="16" fill="#222">\(escape(title)) on \(motor.uppercased())\(compensated ? ", motor-compensated" : ", uncompensated")</text>

        """
        svg += phases() + grid()
        svg += line({ $0.drive }, color: "#4a7fd4", width: 1)
        svg += line({ $0.intensity }, color: "#222", width: 2, dash: "6 4")
        svg += line({ $0.felt }, color: "#e0701b", width: 2)
        svg += legend() + "</svg>\n"
        return svg
    }

    func x(_ t: Double) -> Double { left + t / duration * plotW }
    /// Drive spans -1...1 (braking below the axis); intensity and felt 0...1.
    func y(_ v: Double) -> Double { top + (1 - (v + 0.25) / 1.25) * plotH }

    /// The plan's phases as shaded bands, named where there is room.
    func phases() -> String {
        guard let plan else { return "" }
        let colors: [BreathPhase: String] = [.inhale: "#e3f0fb", .hold: "#f3f3f3", .exhale: "#fbeee3", .holdOut: "#f3f3f3"]
        var svg = ""
        for p in plan.phases where p.seconds > 0 {
            let x0 = x(p.start), w = x(p.end) - x0
            svg += "<rect x=\"\(f(x0))\" y=\"\(top)\" width=\"\(f(w))\" height=\"\(plotH)\" fill=\"\(colors[p.spec.kind]!)\"/>\n"
            if w > 40 {
                svg += "<text x=\"\(f(x0 + 4))\" y=\"\(top + 14)\" fill=\"#777\">\(p.spec.kind.rawValue)</text>\n"
            }
        }
        return svg
    }

    /// Level lines every 25 % (the axis darker) and the time labels.
    func grid() -> String {
        var svg = ""
        for v in stride(from: -0.25, through: 1.0, by: 0.25) {
            svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(f(y(v)))\" y2=\"\(f(y(v)))\" stroke=\"\(v == 0 ? "#999" : "#ddd")\"/>\n"
            svg += "<text x=\"\(left - 8)\" y=\"\(f(y(v) + 4))\" text-anchor=\"end\" fill=\"#555\">\(Int(v * 100))%</text>\n"
        }
        let step = niceStep(duration)
        for t in stride(from: 0.0, through: duration, by: step) {
            svg += "<text x=\"\(f(x(t)))\" y=\"\(height - bottom + 18)\" text-anchor=\"middle\" fill=\"#555\">\(FixedDecimal.text(t, step < 1 ? 1 : 0)) s</text>\n"
        }
        return svg
    }

    /// One quantity of every frame as a polyline.
    func line(_ value: (RenderedFrame) -> Double, color: String, width w: Double, dash: String = "") -> String {
        var points = ""
        for frame in frames {
            points += "\(f(x(frame.time))),\(f(y(value(frame)))) "
        }
        let d = dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\""
        return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(w)\"\(d) points=\"\(points)\"/>\n"
    }

    func legend() -> String {
        let legend = [("intended", "#222"), ("drive (duty)", "#4a7fd4"), ("felt (modeled)", "#e0701b")]
        var svg = ""
        for (k, (name, color)) in legend.enumerated() {
            let lx = width - right - 420 + Double(k) * 140
            svg += "<line x1=\"\(f(lx))\" x2=\"\(f(lx + 24))\" y1=\"20\" y2=\"20\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            svg += "<text x=\"\(f(lx + 30))\" y=\"24\" fill=\"#333\">\(name)</text>\n"
        }
        return svg
    }

    func f(_ v: Double) -> String { FixedDecimal.text(v, 1) }

    func niceStep(_ duration: Double) -> Double {
        for s in [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600] where duration / s <= 20 { return s }
        return 1200
    }

    func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
