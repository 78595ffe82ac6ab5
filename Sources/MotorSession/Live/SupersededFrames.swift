// Live changes sent from the first frame the board may not yet have output: each REPLACE carries frames the
// board may already have played, and the STATUS answering it says from which one the new values took
// effect (its next_play). Until then, and for the frames it played first, the old values are what it played.
// SPDX-License-Identifier: Apache-2.0

/// The REPLACE messages of live changes, waiting for the board's answer, and the frames the board output
/// before their replacement reached it (which played their old values, as the host meant them until then).
///
/// A REPLACE value for a frame the board has already output is dropped there (protocol.md, REPLACE): the
/// change takes effect from the board's `next_play` when the message arrives, which the STATUS answering it
/// carries. A PLAYED report that arrives before that answer was sent before the REPLACE arrived (the board
/// answers in order), so every frame of it played its old value.
///
///     var superseded = SupersededFrames()
///     superseded.sent(seq: 7, first: 1000, old: [40, 41, 42], change: 3)
///     let answer = superseded.answered(seq: 7, nextPlay: 1002)  // [(first 1000, from 1002, end 1003, change 3)]
///     var expected: [UInt16] = [90, 91, 92]
///     superseded.patch(&expected, first: 1000)                  // [40, 41, 92]
struct SupersededFrames {
    /// One REPLACE block: its first frame and the values it replaced, in order (the whole block's, or its
    /// first ones when a finish had shortened the breath: frames past its end are not the host's to know).
    struct Sent {
        var seq: UInt8
        var first: Int
        var old: [UInt16]
        /// The live change it carries (an id from `LiveEdits`).
        var change: Int
        /// When it was sent (host ns).
        var sentNs: UInt64 = 0
    }

    /// Blocks whose answer has not come yet (oldest first).
    private(set) var waiting: [Sent] = []
    /// Frames output before their replacement arrived, and the value they played.
    private var kept: [Int: UInt16] = [:]
    /// Replaced values that reached the board after it had output their frame (the board counts them in
    /// `late_frames`; they are not late data, the change just came after).
    private(set) var tooLate = 0

    /// A REPLACE (sequence `seq`) for the frames from `first` on, whose values before it were `old`.
    mutating func sent(seq: UInt8, first: Int, old: [UInt16], change: Int, now: UInt64 = 0) {
        waiting.removeAll { $0.seq == seq }  // a sequence number used again: the old block's answer is lost
        waiting.append(Sent(seq: seq, first: first, old: old, change: change, sentNs: now))
    }

    /// Blocks sent before `deadline` whose answer has not come: lost (a full outbox on the board drops its
    /// newest message; a line can lose it). Taken as applied whole, as `answered` takes a skipped one.
    mutating func expire(sentBefore deadline: UInt64) -> [(first: Int, from: Int, end: Int, change: Int)] {
        let lost = waiting.prefix { $0.sentNs < deadline }
        waiting.removeFirst(lost.count)
        return lost.map { ($0.first, $0.first, $0.first + $0.old.count, $0.change) }
    }

    /// The board answered `seq` with `nextPlay` (session index): the block's values took effect from
    /// `from`. Empty when `seq` is not a waiting block. Blocks sent before it whose answer never came (lost on
    /// the line) are taken as applied whole, from their first frame: where that is wrong, the PLAYED evidence
    /// shows a mismatch and the session counts it, as for any value the motor did not play as meant.
    mutating func answered(seq: UInt8, nextPlay: Int) -> [(first: Int, from: Int, end: Int, change: Int)] {
        guard let at = waiting.firstIndex(where: { $0.seq == seq }) else { return [] }
        var result: [(first: Int, from: Int, end: Int, change: Int)] = []
        for (k, block) in waiting[...at].enumerated() {
            let end = block.first + block.old.count
            let from = k == at ? min(max(block.first, nextPlay), end) : block.first
            // Two changes in a row both too late for a frame: it played what was there before the first.
            for i in block.first..<from where kept[i] == nil { kept[i] = block.old[i - block.first] }
            tooLate += from - block.first
            result.append((block.first, from, end, block.change))
        }
        waiting.removeFirst(at + 1)
        return result
    }

    /// Puts into `values` (the frames from `first` on, as the host now means them) what the board played
    /// instead: the old values of frames it output before their replacement arrived, and of every frame of a
    /// block still waiting for its answer.
    func patch(_ values: inout [UInt16], first: Int) {
        guard !kept.isEmpty || !waiting.isEmpty else { return }
        // The earliest unanswered block's old value is what the board held (later ones replaced that change).
        for block in waiting.reversed() {
            let lo = max(block.first, first), hi = min(block.first + block.old.count, first + values.count)
            for i in lo..<max(lo, hi) { values[i - first] = block.old[i - block.first] }
        }
        for k in values.indices {
            if let v = kept[first + k] { values[k] = v }
        }
    }

    /// Frames before `index` have been judged: their kept values are no longer needed.
    mutating func forget(before index: Int) {
        guard !kept.isEmpty else { return }
        kept = kept.filter { $0.key >= index }
    }

    /// A new stream (after a reconnect): nothing sent before it will be answered.
    mutating func restart() {
        waiting.removeAll()
        kept.removeAll()
    }
}
