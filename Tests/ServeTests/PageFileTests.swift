// The page's pattern files in headless Chromium (real-time tier): a Meta/Lofelt .haptic file dropped on the
// plot, exported as .haptic and .hjif, and played on a sim-board, judged on its drive log
// (Tests/Browser/serve_files.py).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

/// A dropped `.haptic` file plays on the board as `render --ahap` renders it, and its exports read back.
@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10)))
struct PageFileTests {
    @Test func aDroppedHapticFilePlaysOnTheBoard() throws {
        let r = try run("python3", [repository.appendingPathComponent("Tests/Browser/serve_files.py").path,
                                    "--motorbreath", motorbreathBinary.path], timeout: 180)
        #expect(r.status == 0, "\(r.err)\n\(r.out)")
        let result = try jsonObject(r.out.split(separator: "\n").last.map(String.init) ?? "")
        print("page files: \(result)")
        #expect((result["preview_vs_render"] as? Double ?? 1) <= 1e-4)
        #expect((result["file_frames_compared"] as? Int ?? 0) >= 460 && (result["file_worst_level_vs_render"] as? Int ?? 99) <= 2)
        #expect((result["export_hjif_vs_file"] as? Double ?? 1) <= 0.01 && (result["export_haptic_vs_file"] as? Double ?? 1) <= 0.01)
    }
}
