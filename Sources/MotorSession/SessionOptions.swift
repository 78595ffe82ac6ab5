// Knobs of a playback session, with the defaults the CLI uses.

import MotorWire

public struct SessionOptions: Sendable {
    public var frameRate = 250
    public var dutyFormat: DutyFormat = .u8
    /// Use signed i16 duties with reverse drive (braking) when the board has an H-bridge.
    public var allowReverse = false
    /// The board turns the motor off after this long without valid traffic.
    public var failsafeMs: UInt16 = 200
    /// The first frame plays this long after START is sent.
    public var startLeadMs = 300
    /// Keep about this much of the breath buffered on the board.
    public var targetBufferMs = 1000
    /// Frames per PLAYED report (board-clock evidence of what was output and when).
    public var reportEvery: UInt16 = 25
    public var heartbeatMs = 50
    public var helloTimeoutMs = 3000
    public var replyTimeoutMs = 500
    public var clockSamples = 16
    /// Retransmit from the board's next expected index after this long without progress.
    public var retransmitTimeoutMs = 150

    public init() {}
}
