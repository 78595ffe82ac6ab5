// Sending the stream: pre-fill and START, topping the board's buffer up in whole messages within its
// window, selective repeat of the holes the board names, the retransmission timeout, and the loop's wait.
// Works on the stream and line parts (and the timing part for START and the schedule).
// SPDX-License-Identifier: Apache-2.0

import MotorWire

extension Player {
    /// Pre-fills from session frame `first` (wire index 0) and STARTs so it plays at its intended time.
    func begin(at first: Int) throws(SessionError) {
        stream.begin(at: first, now: now)
        try sendFrames(upTo: first + line.targetFrames)
        let start = timing.start(first: first, now: now)
        try channel.send(.start(start))
        timing.sync.dueNow(now)
        channel.resetWriteGap()  // the gaps that matter are the ones while a stream plays
    }

    /// Sends frames [index, index + count) as one FRAMES message (count clipped to what fits); returns how many.
    /// With `replacing`, as REPLACE: the board overwrites those frames if it has not output them yet.
    @discardableResult
    func sendBlock(from index: Int, count: Int, replacing: Bool = false) throws(SessionError) -> Int {
        try sendMessage(from: index, count: count, replacing: replacing)?.count ?? 0
    }

    /// `sendBlock`, with the message's sequence number (nil: nothing to send).
    func sendMessage(from index: Int, count: Int, replacing: Bool) throws(SessionError) -> (count: Int, seq: UInt8)? {
        let format = prepared.config.dutyFormat
        let n = stream.blockSize(from: index, count: count, maxPerMessage: format.maxPerMessage)
        guard n > 0, let source = stream.source else { return nil }
        var block = FramesBlock(firstIndex: wire(index), format: format)
        for v in source.frames(from: index, count: n) { block.values.append(v) }
        // Frames sent before go again as REPLACE where the board takes it: the breath may have changed since
        // (a repair must not leave the board with the old values).
        let replace = replacing || (index < stream.window.highestSent && prepared.info.capabilities & Info.capReplace != 0)
        let seq = try channel.send(replace ? .replace(block) : .frames(block))
        stream.window.noteSent(from: index, count: n, at: now)
        stream.framesSent += n
        return (n, seq)
    }

    /// Sends frames up to `limit` (exclusive), never more than the board's window past its last ACK.
    func sendFrames(upTo limit: Int) throws(SessionError) {
        let end = min(limit, stream.sendLimit(capacity: capacity))
        while stream.window.next < end {
            let resent = stream.window.highestSent - stream.window.next
            let n = try sendBlock(from: stream.window.next, count: min(line.framesPerMessage, end - stream.window.next))
            if resent > 0 { stream.retransmits += min(n, resent) }
            stream.window.next += n
        }
    }

    /// Resends one message's worth of frames from `index` (a hole the board named), at most once per
    /// round trip for the same hole.
    func repair(from index: Int) throws(SessionError) {
        guard stream.window.shouldRepair(from: index, now: now, guardNs: repairGuardNs) else { return }
        // On a lossy line the messages after a hole are likely lost too: resend the next one as well, and
        // each twice.
        for _ in 0..<line.repairCopies {
            var at = index
            for _ in 0..<line.repairCopies where at < stream.window.highestSent {
                let n = try sendBlock(from: at, count: min(line.framesPerMessage, stream.window.highestSent - at))
                stream.retransmits += n
                at += n
            }
        }
    }

    /// Frame `index` was sent long enough ago that it should have arrived: if the board still misses it,
    /// it was lost.
    func overdue(_ index: Int) -> Bool { (stream.window.sentAgoNs(index, now: now) ?? 0) > repairGuardNs }

    /// One round: send what is due, read what came, react.
    func pump(at t: UInt64) throws(SessionError) {
        stream.refreshTotal()  // a live breath grows (looping, paused) or shrinks (finished)
        let playing = timing.playing(at: t, before: 0)
        // Top up in whole messages: one-frame messages every frame period would waste most of the link on
        // headers, and a remainder message after each batch nearly doubles the headers. (When the buffer
        // runs low, or at the end, whatever is due goes.)
        line.note(errors: evidence.crcErrors + Int(channel.rxErrors.total), now: t)
        let batch = line.framesPerMessage
        let targetFrames = line.targetFrames
        let next = stream.window.next
        let due = playing + targetFrames - next
        // While the board holds CLOCK requests, the loop wakes for each answer and for what the board sends
        // meanwhile, and seldom at its own times: a batch that falls due before the next answer goes now, at a
        // wake-up the loop has anyway (five fewer a second at 250 Hz).
        let ahead = clockHoldMs(at: t).map { $0 * timing.rate / 1000 } ?? 0
        if next < playing + targetFrames / 2 {
            try sendFrames(upTo: playing + targetFrames)
        } else if due + ahead >= batch {
            try sendFrames(upTo: next + (due + ahead) / batch * batch)
        }
        // On a line that corrupts frames, send the previous batch once more as well: a frame is then lost
        // only if both copies are (at 40 % message loss: 16 %), and repairs have far less to do.
        if line.lossy && stream.window.next > next && next - batch >= stream.window.acked {
            stream.retransmits += try sendBlock(from: next - batch, count: batch)
        }
        try endStreamIfSent(at: t)
        // Retransmission timeout: the oldest unacknowledged frame has been out longer than the RTO (its
        // message, its repair or every acknowledgement since was lost).
        let rto = line.retransmitTimeoutNs(minRTTNs: timing.sync.tracker.minRTTNs)
        if stream.window.acked < stream.window.highestSent && elapsed(t, since: stream.window.lastProgressNs) > rto
            && (stream.window.sentAgoNs(stream.window.acked, now: t) ?? 0) > rto {
            try repair(from: stream.window.acked)
            stream.window.lastProgressNs = t
        }
        if stream.window.next > next { timing.framesSent(at: t) }
        try syncClock(at: t)
        if elapsed(t, since: channel.lastWriteNs) > UInt64(heartbeatMs) * 1_000_000 {
            try channel.send(.heartbeat)
        }
        // Wait for the board's bytes or the next thing to do, whichever comes first (no fixed poll: a
        // session at 1 kHz wakes about as often as messages arrive, not every 2 ms).
        let waitMs = waitMs(at: now, playing: playing, batch: batch)
        // On a known adapter the CLOCK requests are timed to the µs (spread over its hold): wait for the next
        // one exactly when it comes first. Otherwise whole milliseconds, as always.
        // `now` reads the clock: read it once (read twice, time could pass the request between the
        // comparison and the subtraction, and the subtraction trap: CI crashed on it once, in an AVR test).
        let nowNs = now
        let untilRequest = timing.sync.nextDueNs > nowNs ? timing.sync.nextDueNs - nowNs : 0
        let messages = timing.sync.link != nil && untilRequest > 0 && untilRequest < UInt64(waitMs) * 1_000_000
            ? try channel.receive(timeoutNs: untilRequest)
            : readsCanWait(at: nowNs) ? try channel.receiveAfterIdle(timeoutMs: waitMs) : try channel.receive(timeoutMs: waitMs)
        for m in messages {
            try handle(m)
        }
    }

    /// Whether the loop may sleep until its next own deadline without waking for the board's messages (they
    /// are read then): no CLOCK reply is awaited (its arrival time is the sample), no live change waits for
    /// the answers that say where it took effect, and the stream is not ending. PLAYED reports and the
    /// STATUS answering FRAMES then no longer each wake the host (15 a second at 250 Hz); a NAK or a board
    /// that lost its stream is seen at the next deadline, within a CLOCK spacing. On links that cannot wait
    /// so (a simulated link in virtual time), reads are as before.
    func readsCanWait(at t: UInt64) -> Bool {
        !timing.sync.awaitingReply(at: t) && edits.superseded.waiting.isEmpty && !stream.end.stopSent
    }

    /// Milliseconds until the loop has something to do: the next CLOCK request, the next batch of frames,
    /// a heartbeat, a retransmission timeout, the end of the stream; 1...50.
    func waitMs(at t: UInt64, playing: Int, batch: Int) -> Int {
        var due = timing.sync.nextDueNs
        if stream.canSendMore(capacity: capacity) {
            due = min(due, intendedNs(max(0, stream.window.next + batch - line.targetFrames)))
        }
        due = min(due, channel.lastWriteNs + UInt64(heartbeatMs) * 1_000_000)
        if stream.window.acked < stream.window.highestSent {
            // The timeout needs both the last progress and the oldest unacknowledged frame's send that long
            // ago (`pump`): wait from the later of the two. (From the progress alone, every batch sent after
            // a quiet spell would wake the loop soon after for nothing: one wake-up a batch.)
            let sentNs = stream.window.sentAgoNs(stream.window.acked, now: t).map { t - $0 } ?? 0
            due = min(due, max(stream.window.lastProgressNs, sentNs) + UInt64(options.retransmitTimeoutMs) * 1_000_000)
        }
        if let check = endCheckNs { due = min(due, max(check, t + 1_000_000)) }  // the board clock passing the end
        if let release = nextEventReleaseNs { due = min(due, release) }
        let ms = Int((elapsed(due, since: t) + 999_999) / 1_000_000)
        return min(50, max(1, ms))
    }
}
