// The page shaped for what serve plays (real-time tier): the --palette page (no phases, pace or preview;
// Finish exits 0, Stop 130) and the breath page's preview plot and pace (Tests/Browser/serve_palette.py,
// serve_preview.py: headless Chromium against serve on a sim-board).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

/// What each page shows and how serve ends, judged on element boxes and texts, the canvas's own pixels per
/// column, serve's events and exit status and the sim-board's drive log.
@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(6)))
struct PageShapeTests {
    /// serve --palette: "steady" and the level at the breath's place, no phase, pace or preview (nothing
    /// asked of /api/), Tab Pause, Finish, Stop, Strength, the square; Finish exits 0, Stop 130, motor off.
    @Test func thePalettePageAndItsExits() throws {
        let r = try run("python3", [repository.appendingPathComponent("Tests/Browser/serve_palette.py").path,
                                    "--motorbreath", motorbreathBinary.path], timeout: 150)
        #expect(r.status == 0, "\(r.err)\n\(r.out)")
        let result = try jsonObject(r.out.split(separator: "\n").last.map(String.init) ?? "")
        #expect((result["finish"] as? [String: Any])?["exit"] as? Int == 0, "\(result)")
        #expect((result["stop"] as? [String: Any])?["exit"] as? Int == 130, "\(result)")
        #expect((result["shape"] as? [String: Any])?["phase"] as? String == "steady", "\(result)")
    }

    /// The plot's axes and legend, no line hidden by another; the pace's steps a thumb's size, saying when
    /// they apply, and shown back at serve's value when refused; no cycle counted past the total.
    @Test func thePreviewPlotAndThePace() throws {
        let r = try run("python3", [repository.appendingPathComponent("Tests/Browser/serve_preview.py").path,
                                    "--motorbreath", motorbreathBinary.path], timeout: 150)
        #expect(r.status == 0, "\(r.err)\n\(r.out)")
        let result = try jsonObject(r.out.split(separator: "\n").last.map(String.init) ?? "")
        for size in ["390x844", "1280x800"] {
            let plot = result[size] as? [String: Any] ?? [:]
            let seen = plot["columns_seen_of_alone"] as? [String: Double] ?? [:]
            #expect(seen.count == 3 && seen.values.allSatisfy { $0 >= 0.9 }, "\(size): \(plot)")
            #expect((plot["y_ticks"] as? [String])?.prefix(3) == ["0 %", "50 %", "100 %"], "\(size): \(plot)")
        }
        #expect(result["exit_after_finish"] as? Int == 0, "\(result)")
    }
}
