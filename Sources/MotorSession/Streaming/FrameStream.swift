// The stream part of a `Player`: the breath's frames, where the board's current stream starts in them
// (wire index 0), the send window over the board's buffer, how the stream ends, and what was sent.
// SPDX-License-Identifier: Apache-2.0

/// The frames on their way to the board, in session frame indices (wire index = session index - `wireBase`).
struct FrameStream {
    /// The breath's frames (nil until `Player.play`).
    var source: FrameSource?
    /// Frames in the breath as it stands (a live breath grows or shrinks).
    var total = 0
    /// Session index of wire index 0 on the board's current stream.
    private(set) var wireBase = 0
    /// The session index of wire index 0 for each board connection (one entry per prepare).
    private(set) var wireBases: [Int] = []
    var window = SendWindow()
    var end = StreamEnd()
    /// Frame values transmitted (retransmissions included), retransmitted, and replaced after a change.
    var framesSent = 0
    var retransmits = 0
    var replaced = 0

    /// Plays `source` from session frame 0.
    mutating func load(_ source: FrameSource) {
        self.source = source
        total = source.frameCount
    }

    /// Takes in the source's current length (a live breath grows while looping or paused, shrinks when it finishes).
    mutating func refreshTotal() {
        if let source { total = source.frameCount }
    }

    /// A new stream on the board whose wire index 0 is session frame `first`.
    mutating func begin(at first: Int, now: UInt64) {
        wireBase = first
        wireBases.append(first)
        window.restart(at: first, now: now)
        end = StreamEnd()
    }

    /// The wire index of session frame `i`.
    func wire(_ i: Int) -> UInt32 { UInt32(truncatingIfNeeded: i - wireBase) }

    /// One past the last frame the board's buffer (`capacity` frames, 8 kept free) has room for now.
    func sendLimit(capacity: Int) -> Int { min(window.acked + capacity - 8, total) }

    /// Whether sending from `window.next` on has fresh frames the board has room for.
    func canSendMore(capacity: Int) -> Bool { window.next < total && window.next < window.acked + capacity - 8 }

    /// Frames [index, index + count) clipped to what one message of `maxPerMessage` carries and the breath has.
    func blockSize(from index: Int, count: Int, maxPerMessage: Int) -> Int { min(maxPerMessage, count, total - index) }
}
