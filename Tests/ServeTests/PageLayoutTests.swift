// The page on a phone, by keyboard and by screen reader (real-time tier): headless Chromium at 390 x 844
// and 360 x 640 against serve on a sim-board (Tests/Browser/serve_layout.py).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

/// The first screen holds the circle, the phase and Pause/Stop at both sizes (element boxes); Tab reaches
/// every control in order; text and control contrast meet WCAG AA (computed styles); the live region
/// speaks once a phase; the palette moves by the arrow keys (serve's applied intensity).
@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10)))
struct PageLayoutTests {
    @Test func firstScreenKeyboardContrastAndAnnouncements() throws {
        let r = try run("python3", [repository.appendingPathComponent("Tests/Browser/serve_layout.py").path,
                                    "--motorbreath", motorbreathBinary.path], timeout: 180)
        #expect(r.status == 0, "\(r.err)\n\(r.out)")
        let result = try jsonObject(r.out.split(separator: "\n").last.map(String.init) ?? "")
        #expect(result["390x844"] != nil && result["360x640"] != nil, "\(result)")
        #expect((result["contrast_lowest"] as? Double ?? 0) >= 3 && (result["contrast_checked"] as? Int ?? 0) >= 20, "\(result)")
        #expect(result["palette_keys_intensity"] as? Double == 0.7, "\(result)")
    }
}
