// The stream part on its own: the send window (what is sent, resent, acknowledged; the selective-repeat
// guard on a hole the board names) and the frame stream's wire indices and room on the board.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SendWindowTests {
    /// Sends, acknowledgements and what each leaves in the window, step by step.
    enum Step { case send(Int, Int, at: UInt64), ack(Int, at: UInt64) }

    @Test(arguments: [
        // (steps, next-not-checked; highestSent, acked, lastProgressNs)
        ([Step.send(0, 50, at: 10)], 50, 0, 0),
        ([.send(0, 50, at: 10), .send(50, 50, at: 20)], 100, 0, 0),
        ([.send(0, 50, at: 10), .ack(30, at: 40)], 50, 30, 40),
        // An acknowledgement never goes back, and one that does not move does not count as progress.
        ([.send(0, 50, at: 10), .ack(30, at: 40), .ack(20, at: 50), .ack(30, at: 60)], 50, 30, 40),
        // A resend of frames already sent does not lower the highest frame sent.
        ([.send(0, 100, at: 10), .send(20, 10, at: 30)], 100, 0, 0),
    ] as [([Step], Int, Int, UInt64)])
    func sendsAndAcknowledgements(steps: [Step], highestSent: Int, acked: Int, lastProgressNs: UInt64) {
        var w = SendWindow()
        for step in steps {
            switch step {
            case .send(let from, let count, let at): w.noteSent(from: from, count: count, at: at)
            case .ack(let through, let at): w.acknowledge(through: through, at: at)
            }
        }
        #expect(w.highestSent == highestSent)
        #expect(w.acked == acked)
        #expect(w.lastProgressNs == lastProgressNs)
    }

    /// How long ago each frame was last sent: its latest send, and nothing once 2048 later frames
    /// overwrote its slot.
    @Test func sentAgoIsTheLatestSendWhileRemembered() {
        var w = SendWindow()
        w.noteSent(from: 0, count: 100, at: 1_000)
        w.noteSent(from: 40, count: 10, at: 5_000)  // a resend
        #expect(w.sentAgoNs(0, now: 9_000) == 8_000)
        #expect(w.sentAgoNs(45, now: 9_000) == 4_000)
        #expect(w.sentAgoNs(100, now: 9_000) == nil)  // never sent
        #expect(w.sentAgoNs(0, now: 500) == 0)         // stamped after `now` was read
        w.noteSent(from: 100, count: 2048, at: 10_000)
        #expect(w.sentAgoNs(0, now: 11_000) == nil)    // frame 2048 took its slot
        #expect(w.sentAgoNs(2147, now: 11_000) == 1_000)
    }

    /// A new stream after a reconnect starts the window at its first frame; what was played stays played.
    @Test(arguments: [(first: 500, played: 300, expectPlayed: 500), (first: 500, played: 700, expectPlayed: 700)])
    func restartMovesEverythingToTheFirstFrame(first: Int, played: Int, expectPlayed: Int) {
        var w = SendWindow()
        w.noteSent(from: 0, count: 800, at: 1)
        w.acknowledge(through: 400, at: 2)
        w.playedThrough = played
        w.restart(at: first, now: 99)
        #expect(w.next == first)
        #expect(w.highestSent == first)
        #expect(w.acked == first)
        #expect(w.playedThrough == expectPlayed)
        #expect(w.lastProgressNs == 99)
    }

    /// Selective repeat: a hole is resent when the board names it, but the same hole not again within the
    /// guard (NAKs for messages sent before the repair keep coming for a round trip); another hole at once;
    /// a hole past everything sent never.
    @Test(arguments: [
        // (hole, at ns) in order -> whether each is repaired; guard 50 ms, 1000 frames sent
        ([(100, 0)], [true]),
        ([(100, 0), (100, 10_000_000)], [true, false]),
        ([(100, 0), (100, 49_999_999)], [true, false]),
        ([(100, 0), (100, 50_000_000)], [true, true]),
        ([(100, 0), (200, 1)], [true, true]),
        ([(100, 0), (200, 1), (100, 2)], [true, true, true]),  // only the last hole is remembered
        ([(1000, 0)], [false]),
        ([(999, 0)], [true]),
    ] as [([(Int, UInt64)], [Bool])])
    func repairGuard(naks: [(Int, UInt64)], repaired: [Bool]) {
        var w = SendWindow()
        w.noteSent(from: 0, count: 1000, at: 0)
        #expect(naks.map { w.shouldRepair(from: $0.0, now: $0.1, guardNs: 50_000_000) } == repaired)
    }

    /// Wire indices count from the stream's first frame; every prepare's first frame is kept.
    @Test func wireIndicesCountFromTheStreamsFirstFrame() {
        var s = FrameStream()
        s.begin(at: 0, now: 0)
        #expect(s.wire(0) == 0 && s.wire(250) == 250)
        s.begin(at: 1200, now: 5)
        #expect(s.wire(1200) == 0 && s.wire(1450) == 250)
        #expect(s.wire(1199) == UInt32.max)  // before the stream: wraps, as on the wire
        #expect(s.wireBases == [0, 1200])
        #expect(s.window.next == 1200 && s.end.stopSent == false)
    }

    /// The board's room: its buffer less 8 frames past the last acknowledgement, never past the breath.
    @Test(arguments: [
        // (acked, next, total, capacity) -> (sendLimit, canSendMore)
        (0, 0, 10_000, 1024, 1016, true),
        (500, 1516, 10_000, 1024, 1516, false),
        (500, 1515, 10_000, 1024, 1516, true),
        (9_500, 10_000, 10_000, 1024, 10_000, false),
        (0, 0, 100, 1024, 100, true),
    ])
    func roomOnTheBoard(acked: Int, next: Int, total: Int, capacity: Int, limit: Int, more: Bool) {
        var s = FrameStream()
        s.total = total
        s.window.acknowledge(through: acked, at: 1)
        s.window.next = next
        #expect(s.sendLimit(capacity: capacity) == limit)
        #expect(s.canSendMore(capacity: capacity) == more)
    }

    /// A message carries at most its format's maximum and never frames past the breath's end.
    @Test(arguments: [(0, 50, 234, 1000, 50), (0, 300, 234, 1000, 234), (990, 50, 234, 1000, 10), (1000, 50, 234, 1000, 0)])
    func blockSizes(index: Int, count: Int, max: Int, total: Int, expected: Int) {
        var s = FrameStream()
        s.total = total
        #expect(s.blockSize(from: index, count: count, maxPerMessage: max) == expected)
    }
}
