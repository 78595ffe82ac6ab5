// The line part of a `Player`: how the line has been lately (clean or corrupting frames) and what the
// session does about it: message sizes, how much of the board's buffer to keep filled, when a hole may
// be repaired again, how many copies a repair gets, and the spacing of CLOCK exchanges the line allows.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// The line's condition and the repair policy it calls for.
struct LinePolicy {
    /// The line corrupted frames lately (either side counted CRC errors within 5 s): send smaller messages,
    /// keep the board's whole buffer filled (more time to repair), and send every repair twice.
    private(set) var lossy = false
    /// The last STATUS, the last round trip, when errors were last seen.
    var health = LinkHealth()
    let rate: Int
    let options: SessionOptions
    /// Frames the board buffers and the duty format it was configured with (set again on every prepare).
    private(set) var capacity: Int
    private(set) var format: DutyFormat

    init(options: SessionOptions, capacity: Int, format: DutyFormat) {
        self.options = options
        rate = options.frameRate
        self.capacity = capacity
        self.format = format
    }

    /// The board was prepared again.
    mutating func configure(capacity: Int, format: DutyFormat) {
        self.capacity = capacity
        self.format = format
    }

    /// Takes in both sides' running total of corrupted frames at `now`.
    mutating func note(errors: Int, now: UInt64) {
        lossy = health.lossyLately(errors: errors, now: now)
    }

    /// A round trip and a half, at least 50 ms: NAKs older than this answer messages sent before a repair.
    /// On a lossy line a repair is itself often lost, so the same hole is tried again after one round trip.
    func repairGuardNs(minRTTNs: UInt64) -> UInt64 {
        lossy ? max(30_000_000, minRTTNs + 10_000_000)
            : max(50_000_000, minRTTNs * 3 / 2 + 20_000_000)
    }

    /// The retransmission timeout: the oldest unacknowledged frame out this long was lost (its message, its
    /// repair or every acknowledgement since).
    func retransmitTimeoutNs(minRTTNs: UInt64) -> UInt64 {
        lossy ? repairGuardNs(minRTTNs: minRTTNs) : UInt64(options.retransmitTimeoutMs) * 1_000_000
    }

    /// How often a repair goes out, and how many messages from the hole on: on a lossy line the messages
    /// after a hole are likely lost too, so the next one goes as well, and each twice.
    var repairCopies: Int { lossy ? 2 : 1 }

    /// Frames per FRAMES message. On a clean line, 200 ms of frames (50 at 250 Hz; 200 u8 or 117 i16 at
    /// 1 kHz), at least `minFramesPerMessage`, at most a quarter of the board's buffer (the AVR board's 256):
    /// fewer headers, STATUS answers and wake-ups, and fewer CLOCK requests queued behind a FRAMES (such a
    /// request reaches the board late, which the clock estimate cannot tell from jitter). On a lossy line, half of
    /// `minFramesPerMessage` at any rate (at 1 % byte errors a 32-frame i16 message is lost 53 % of the
    /// time, a 16-frame one 36 %).
    var framesPerMessage: Int {
        lossy ? max(1, min(cleanFramesPerMessage, options.minFramesPerMessage) / 2) : cleanFramesPerMessage
    }

    var cleanFramesPerMessage: Int {
        min(format.maxPerMessage, capacity / 4, max(options.minFramesPerMessage, rate / 5))
    }

    /// Frames to keep buffered on the board: `targetBufferMs` of them, the whole buffer on a lossy line.
    var targetFrames: Int {
        let capacity = self.capacity - 8
        return max(1, lossy ? capacity : min(capacity, rate * options.targetBufferMs / 1000))
    }

    /// The steady traffic's budget on this line (with the messages a clean line carries).
    var lineBudget: LineBudget {
        LineBudget(baud: options.baud, share: options.lineShare, frameRate: rate, format: format,
                   framesPerMessage: cleanFramesPerMessage)
    }

    /// How often CLOCK exchanges go out once the rate is learned: `syncMs`, or sparser where the line is
    /// busy (it depends on the rate, the format, the board's buffer and the line).
    var steadySyncMs: Int {
        lineBudget.clockIntervalMs(fastestMs: options.syncMs, slowestMs: max(options.syncMs, options.sparsestSyncMs))
    }
}
