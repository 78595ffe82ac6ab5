// The virtual-time world reports a livelock instead of spinning for ever: a test's time limit cannot stop
// a synchronous loop, so a host or a board that never lets virtual time pass would hang the whole run.
// SPDX-License-Identifier: Apache-2.0

import SerialLink
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(3))) struct LivelockTests {
    /// A host polling without a timeout waits for something that never comes: in virtual time nothing
    /// happens unless time passes. The loop here is bounded, so the test itself cannot hang.
    @Test func aHostPollingWithoutATimeoutIsToldOfTheLivelock() {
        let link = SimWorld(pacing: .virtual).hostLink
        var polls = 0
        var caught: LinkError?
        while polls < 3 * SimWorld.stillLimit {
            do { _ = try link.read(maxBytes: 64, timeoutMs: 0) } catch { caught = error; break }
            polls += 1
        }
        #expect(caught != nil, "no error after \(polls) polls that let no time pass")
        #expect(polls <= SimWorld.stillLimit + 1)
        #expect(caught.map { "\($0)".contains("livelock") } == true, "\(String(describing: caught))")
        // From then on every write says so too.
        #expect(throws: LinkError.self) { try link.write([0], timeoutMs: 10) }
    }

    /// A board that asks to be woken now over and over, inside one read: the world stops it there.
    @Test func aBoardThatNeverLetsTimePassIsStopped() throws {
        let world = SimWorld(pacing: .virtual)
        _ = try world.hostLink.read(maxBytes: 4096, timeoutMs: 50)  // the INFO it announces itself with at boot
        world.timeStandsStill = true
        #expect(throws: LinkError.self) { _ = try world.hostLink.read(maxBytes: 4096, timeoutMs: 100) }
    }

    /// Polls that let time pass now and then are no livelock, however many there are.
    @Test func pollsThatLetTimePassAreNotALivelock() throws {
        let world = SimWorld(pacing: .virtual)
        let link = world.hostLink
        for n in 0..<(SimWorld.stillLimit + SimWorld.stillLimit / 2) {
            _ = try link.read(maxBytes: 64, timeoutMs: n % 1000 == 0 ? 1 : 0)
        }
        #expect(world.nowNs >= 1_000_000_000)
    }
}
