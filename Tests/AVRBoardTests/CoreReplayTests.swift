// BoardCore's scenarios against the AVR firmware's C core on the host: the same messages at the same ticks
// must give the same drive changes at the same ticks and the same replies, or the test names the first
// place the two boards differ. (The oracle is BoardCore, the Swift board BoardCoreTests hold to protocol.md.)
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire
import Testing
import TestSupport

/// Scenarios in the AVR erm build's terms: 16 MHz board clock, 1000 frames/s (16,000 ticks, 20 PWM periods),
/// anchors on PWM period starts.
enum ReplayScenarios {
    static let frame: UInt64 = 16_000
    static let anchor: UInt64 = 160_000

    static func configure(failsafeMs: UInt16 = 200, rate: UInt16 = 1000, reportEvery: UInt16 = 4) -> HostMessage {
        .configure(Configure(frameRateHz: rate, dutyFormat: .u8, failsafeMs: failsafeMs, reportEvery: reportEvery))
    }
    static func frames(_ first: UInt32, _ values: [UInt16]) -> HostMessage {
        var v = DutyValues()
        for x in values { v.append(x) }
        return .frames(FramesBlock(firstIndex: first, format: .u8, values: v))
    }
    static let start = HostMessage.start(Start(anchorIndex: 0, anchorTick: anchor, periodQ32: frame << 32))

    static let all: [ReplayScenario] = [
        ReplayScenario(name: "a deferred STOP ends playback on its frame's tick", messages: [
            (1_000, configure()), (2_000, frames(0, [0, 64, 128, 200, 32, 0, 100, 10])), (3_000, start),
            (4_000, .stop(atIndex: 8)), (50_000, .heartbeat), (300_000, .heartbeat),
        ], end: 320_000),
        ReplayScenario(name: "frames play at their ticks, then underrun and stop", messages: [
            (1_000, configure()), (2_000, frames(0, [0, 64, 128, 200, 32, 0, 100, 10])), (3_000, start),
            (250_000, .heartbeat), (400_000, .stop(atIndex: HostMessage.stopNow)),
        ], end: 480_000),
        ReplayScenario(name: "duplicates counted, a gap named, the window", messages: [
            (1_000, configure()), (2_000, frames(0, [10, 20, 30, 40])), (3_000, frames(2, [30, 40, 50, 60])),
            (4_000, frames(8, [80, 90])), (5_000, frames(6, [60, 70])), (6_000, start), (7_000, .heartbeat),
            (300_000, .stop(atIndex: HostMessage.stopNow)),
        ], end: 340_000),
        ReplayScenario(name: "refusals before and of CONFIGURE", messages: [
            (1_000, frames(0, [1, 2])), (2_000, start), (3_000, configure(rate: 5000)), (4_000, configure(failsafeMs: 0)),
            (5_000, .heartbeat), (6_000, .limitsRequest),
        ], end: 20_000),
        ReplayScenario(name: "failsafe after the host goes silent", messages: [
            (1_000, configure(failsafeMs: 100)), (2_000, frames(0, Array(repeating: 150, count: 20))), (3_000, start),
        ], end: 1_800_000 + 160_000),
        ReplayScenario(name: "overdrive above the ceiling runs out of budget", messages: [
            (1_000, configure(reportEvery: 0)), (2_000, frames(0, Array(repeating: 255, count: 80))), (3_000, start),
            (1_000_000, .heartbeat), (1_500_000, .limitsRequest), (1_600_000, .stop(atIndex: HostMessage.stopNow)),
        ], end: 1_700_000),
    ]
}

@Suite(.tags(.emulated), .timeLimit(.minutes(2)), .serialized) struct CoreReplayTests {
    init() throws {
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-C", avrDir.path, "replay"]
        try make.run()
        make.waitUntilExit()
        try #require(make.terminationStatus == 0, "make -C hardware/avr replay failed")
    }

    @Test(arguments: ReplayScenarios.all)
    func theCCoreDoesWhatBoardCoreDoes(scenario: ReplayScenario) throws {
        let want = CoreReplay.boardCore(scenario)
        let got = try CoreReplay.firmware(scenario)
        #expect(!want.outputs.isEmpty || scenario.name.hasPrefix("refusals"), "BoardCore drove nothing")
        var found: [String] = []
        // Drive changes: tick and level, in order; the first difference.
        for i in 0..<max(want.outputs.count, got.outputs.count) {
            let w = i < want.outputs.count ? "level \(want.outputs[i].level) at tick \(want.outputs[i].tick)" : "none"
            let g = i < got.outputs.count ? "level \(got.outputs[i].level) at tick \(got.outputs[i].tick)" : "none"
            if w != g {
                found.append("drive change #\(i): BoardCore \(w), C firmware \(g)")
                break
            }
        }
        // Replies, in order, with the tick BoardCore sent each at: PLAYED as one stream, the others as another.
        for played in [true, false] {
            let w = want.replies.filter { $0.text.hasPrefix("PLAYED") == played }
            let g = got.replies.filter { $0.text.hasPrefix("PLAYED") == played }
            for i in 0..<max(w.count, g.count) {
                let wt = i < w.count ? w[i].text : "none", gt = i < g.count ? g[i].text : "none"
                if wt != gt {
                    let t = i < w.count ? w[i].tick : g[i].tick
                    found.append("\(played ? "PLAYED" : "reply") #\(i) (tick \(t)): BoardCore \(wt) / C firmware \(gt)")
                    break
                }
            }
        }
        let known = KnownDrift.differences[scenario.name] ?? []
        for d in found where !known.contains(d) { Issue.record("\(scenario.name): \(d)") }
        for d in known where !found.contains(d) {
            Issue.record("\(scenario.name): known drift no longer seen (remove it from KnownDrift): \(d)")
        }
    }
}
