// The live line's layouts without a terminal: every width from 1 to 250 fits, fields go in their fixed
// order as the width shrinks, and the column count agrees with glibc's wcswidth.
// SPDX-License-Identifier: Apache-2.0

@testable import motorbreath
import Foundation
import LiveText
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LiveLineLayoutTests {
    @Test func statusLineFitsEveryWidthAndDropsFieldsInOrder() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix(seed)
        for _ in 0..<30 {
            let cycles = Int(rng.next() % 20) + 1  // "cycle 1/1" and "cycle 13/20": 11 and 13 columns
            let v = StatusValues(cycle: Int(rng.next() % UInt64(cycles)) + 1, cycles: cycles, phase: ["inhale", "hold", "exhale", "hold-out"][Int(rng.next() % 4)],
                                 remaining: Double(rng.next() % 1000) / 10, intensity: Double(rng.next() % 1001) / 1000,
                                 buffer: Int(rng.next() % 1024), underruns: Int(rng.next() % 100), rttMs: Double(rng.next() % 500) / 10,
                                 driftPPM: Double(rng.next() % 1000) - 500, resent: Int(rng.next() % 3))
            var wider: Set<String> = []
            for columns in (1...250).reversed() {
                let line = StatusLine.text(v, columns: columns)
                #expect(Terminal.columns(of: line) <= columns, "seed \(seed): \(columns) columns: \(line)")
                if columns >= 23 {
                    #expect(line.contains(v.phase) && line.contains(" s  [") && line.contains("]") && !line.contains("…"),
                            "seed \(seed): phase, countdown and bar at \(columns) columns: \(line)")
                }
                // Narrowing never brings a field back, and a field goes only after the less important ones.
                let shown = Set(["drift", "rtt", "buf", "resent", "underruns", "%", "cycle"].filter { line.contains($0) })
                if columns < 250 { #expect(shown.isSubset(of: wider), "seed \(seed): \(columns) columns: \(line)") }
                wider = shown
            }
        }
    }

    @Test func statusLineKeepsTodaysFormatWhenItFits() {
        let v = StatusValues(cycle: 1, cycles: 1, phase: "inhale", remaining: 2.4, intensity: 0.58, buffer: 250,
                             underruns: 0, rttMs: 0.1, driftPPM: 2)
        #expect(StatusLine.text(v, columns: 200)
            == "cycle 1/1  inhale     2.4 s  [██████████████··········]  58%  buf 250  underruns 0  rtt 0.1 ms  drift 2 ppm")
        #expect(StatusLine.text(v, columns: 39) == "inhale     2.4 s  [███████████········]")
    }

    @Test func breathLineFillsTheWidthItIsGiven() {
        for columns in 1...250 {
            for intensity in [0, 0.01, 0.5, 1] {
                let spans = BreathLine.spans(phase: "exhale", remaining: 3.2, intensity: intensity, columns: columns)
                let text = spans.map(\.text).joined()
                if columns >= 17 {
                    #expect(Terminal.columns(of: text) <= columns && text.hasPrefix("exhale     4 s  "), "\(columns): \(text)")
                    let room = columns - 16
                    #expect(text.filter { $0 == "█" }.count == Int((intensity * Double(room)).rounded()), "\(columns): \(text)")
                }
            }
        }
        #expect(BreathLine.spans(phase: "hold", remaining: 1, intensity: 0, columns: 80).first?.colour == "2")
    }

    /// glibc's wcswidth (C.UTF-8, set for this thread only) as the independent count. Glibc's Swift
    /// module leaves it out (it is an X/Open function): looked up with dlsym.
    @Test func columnsAgreeWithWcswidth() throws {
        typealias WCSWidth = @convention(c) (UnsafePointer<wchar_t>, Int) -> Int32
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcswidth"))  // RTLD_DEFAULT
        let wcswidth = unsafeBitCast(symbol, to: WCSWidth.self)
        let locale = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil))
        let previous = uselocale(locale)
        defer {
            uselocale(previous)
            freelocale(locale)
        }
        let samples = ["hold", "[████····]", "µs", "日本語のテキスト", "e\u{301}te\u{301}", "😀 ok", "a\u{200B}b", "한국어", "ｆｕｌｌ"]
        for s in samples {
            let wide = s.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
            #expect(Terminal.columns(of: s) == Int(wcswidth(wide, wide.count)), "\(s)")
            for limit in 0...12 {
                #expect(Terminal.columns(of: Terminal.clip(s, to: limit)) <= limit, "\(s) clipped to \(limit)")
            }
        }
    }
}
