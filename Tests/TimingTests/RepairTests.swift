// Selective repeat, seen from the line: one FRAMES message is lost; the board names the hole with a NAK
// gap when the next message arrives, and the host resends exactly that hole, at once (within the same
// round, long before the retransmission timeout or the STATUS-based repair could), and only once.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import MotorWire
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct RepairTests {
    @Test func aGapNakResendsJustTheHoleOnce() throws {
        var l = LinkImpairments()
        l.latencyNs = 5_000_000
        let world = SimWorld(impairments: l, pacing: .virtual, seed: 3)
        // Record every FRAMES the host sends (virtual time, first index, count); lose the first one that
        // starts at or after frame 64: part of the pre-fill burst, so the next message follows at once and
        // only the NAK can name the hole that early (the STATUS-based repair waits until a frame has been
        // out 50 ms, the retransmission timeout 150 ms).
        var sent: [(at: UInt64, first: UInt32, count: Int)] = []
        var lost: (at: UInt64, first: UInt32, count: Int)?
        world.hostWriteFilter = { at, bytes in
            var decoder = FrameDecoder()
            for b in bytes {
                guard case .packet(let p)? = decoder.push(b), let m = try? HostMessage(p) else { continue }
                let f: FramesBlock
                switch m {
                case .frames(let x), .replace(let x): f = x
                default: continue
                }
                let entry = (at, f.firstIndex, f.values.count)
                if lost == nil && f.firstIndex >= 64 {
                    lost = entry
                    return false
                }
                sent.append(entry)
            }
            return true
        }
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var o = SessionOptions()
        o.allowReverse = true
        let player = Player(channel: channel, prepared: try channel.prepare(options: o), options: o)
        let source = FrameWindow(FrameRenderer(plan: BreathPlan(pattern: try BreathPattern.parse("box")), frameRate: 250, resolution: .i16))
        let report = try player.play(source)
        let hole = try #require(lost)
        // The hole went out again once, from its first frame, covering it (the only frames sent twice).
        let repairs = sent.filter { $0.first <= hole.first && $0.first + UInt32($0.count) > hole.first }
        #expect(repairs.count == 1, "\(repairs)")
        let repair = try #require(repairs.first)
        #expect(repair.first == hole.first && repair.count >= hole.count)
        // Sent as soon as the NAK came back: one round trip (2 x 5 ms) after the lost message.
        #expect(repair.at - hole.at <= 15_000_000, "repair \(Double(repair.at - hole.at) / 1e6) ms after the lost message")
        #expect(report.retransmits == repair.count)
        #expect(report.underruns == 0 && report.framesPlayed == report.framesTotal)
    }
}
