// Knobs of a playback session, with the defaults the CLI uses.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

/// How a session plays: frame rate, duty format, failsafe, how far ahead the host keeps the board's
/// buffer, timeouts, the line budget and prepare's clock-sync budget. The defaults are the CLI's.
///
///     var options = SessionOptions()
///     options.frameRate = 1000
///     options.failsafeMs = 100
public struct SessionOptions: Sendable {
    public var frameRate = 250
    public var dutyFormat: DutyFormat = .u8
    /// Use signed i16 duties with reverse drive (braking) when the board has an H-bridge.
    public var allowReverse = false
    /// The board turns the motor off after this long without valid traffic. The trade-off: shorter stops
    /// the motor sooner when the host dies; longer rides out longer host stalls (the keep-alive thread
    /// and the 20 ms clock requests keep the gap between writes far below it on a working host).
    public var failsafeMs: UInt16 = 200
    /// Feed the failsafe from a thread of its own on a real clock (HEARTBEAT after `heartbeatMs` idle).
    public var keepAliveThread = true
    /// The first frame plays this long after START is sent.
    public var startLeadMs = 300
    /// After a reconnect the breath resumes this long after the board is prepared again (nil: `startLeadMs`).
    /// A board of an ensemble takes the ensemble's start lead: its fresh clock estimate must learn a rate
    /// several % off before its first frame, or it rejoins that % of the lead out of step.
    public var rejoinLeadMs: Int?
    /// Keep about this much of the breath buffered on the board.
    public var targetBufferMs = 1000
    /// Frames in one FRAMES message at low frame rates (at higher rates, 200 ms of frames: see
    /// `Player.framesPerMessage`). On a line that corrupts bytes the session halves it: short messages
    /// survive far better (at 1 % byte errors, 32 u8 frames arrive intact 64 % of the time, 234 only 9 %).
    public var minFramesPerMessage = 32
    /// Frames per PLAYED report (board-clock evidence of what was output and when).
    /// nil: 100 ms of frames (25 at 250 Hz, 100 at 1 kHz), so the reports cost the same at any rate.
    public var reportEvery: UInt16?
    /// The host sends something at least this often (the session uses at most a quarter of `failsafeMs`).
    public var heartbeatMs = 50
    public var helloTimeoutMs = 3000
    public var replyTimeoutMs = 500
    public var clockSamples = 16
    /// Once the board has answered HELLO, prepare (CONFIGURE and the clock sync) takes at most this long
    /// when `clockSamples` have answered, even if the estimate is still moving: the exchanges go on during
    /// the start lead, and a re-timing START carries the better estimate before the first frame. On a
    /// slow, jittery link this bounds the wait before a breath; on a USB board the sync converges sooner.
    /// A board's boot (the wait for its first INFO) does not count.
    public var prepareBudgetMs = 200
    /// During prepare, a CLOCK request goes out this often (pipelined, not waiting for replies).
    public var prepareSyncMs = 10
    /// Retransmit from the board's next expected index after this long without progress.
    public var retransmitTimeoutMs = 150
    /// CLOCK exchanges during playback: this often for the first `denseSyncS` seconds (the clock's rate is
    /// learned), then every `syncMs`, or sparser where the line is busy (`lineShare`).
    public var denseSyncMs = 20
    public var denseSyncS = 3.0
    public var syncMs = 20
    /// Once the exchanges are steady they go in bursts of up to this many: the first at its time, each next one
    /// as soon as the reply before it is in (the host is awake for that reply anyway), on a link whose round
    /// trips (the slowest of the last 50) are under half the spacing and whose adapter is not known (a pseudo-terminal, a `sim-board`; a
    /// known adapter keeps its spread request times, a slow link every request's time: ClockSync.followUp).
    /// The same exchanges a second for fewer wake-ups: at 2, three a pair instead of four. 1: one at a time.
    public var syncBurst = 2
    /// On a fast, steady link whose adapter is not known (45 of the last 50 round trips under 2 ms: a
    /// pseudo-terminal, a `sim-board`), steady exchanges go one at a time and at least this far apart: each
    /// one pins the clock to within a millisecond, and every exchange is two of the host's wake-ups
    /// (`StreamTiming.fastLink`). 0: `syncMs`, in bursts of `syncBurst`.
    public var fastLinkSyncMs = 45
    /// There, a board of revision 1.4 or later holds each request `fastLinkSyncMs` before answering
    /// (CLOCK_REQ's `hold_ms`), and the host sends the next request as each answer comes in: one wake-up
    /// per exchange instead of two (`StreamTiming.holdMs`). false: requests at the host's own times.
    public var holdClockRequests = true
    /// Sample the board's vibration sensor while playing (boards with INFO capability bit 4; others ignore it):
    /// each player starts with it as its `Player.sensing`, and its `Player.vibration` holds the recording.
    public var sensing: SensingRequest?
    /// The host-to-board direction carries the breath and every repair: once the rate is learned, the host
    /// keeps its steady traffic there within `lineShare` of the line by spacing its CLOCK requests, up to
    /// `sparsestSyncMs` apart. Where even that would not fit (the frames alone nearly fill the share: i16 at
    /// 1 kHz on 115200 baud) the budget is out of reach and the requests stay every `syncMs`. At 1 kHz, u8,
    /// 115200 baud: every 47 ms; at 250 Hz, or at 500000 baud: every 20 ms (see LineBudget).
    public var lineShare = 0.12
    public var sparsestSyncMs = 50
    /// The serial line's baud rate, for the budget (the CLI passes --baud; a pseudo-terminal and the
    /// simulated board have no baud rate and are budgeted as this default).
    public var baud = 115_200
    /// The USB-serial adapter between host and board, when known (a real port identifies it: see
    /// `USBSerialTuning.profile(forPort:baud:)`; a simulated adapter link is described the same way). The
    /// clock estimate then uses each direction's documented minimum delay and spreads its requests over the
    /// adapter's hold; nil (unknown) counts both directions alike, as before.
    public var linkProfile: LinkProfile?
    /// Re-time the board (START) when its schedule is this far from the clock estimate.
    public var retimeThresholdUs = 20.0
    /// The board is presumed gone after this long without any message from it.
    public var silenceTimeoutMs = 1000
    /// Reconnect attempts before giving up, and the pause between them.
    public var reconnectAttempts = 20
    public var reconnectPauseMs = 250

    public init() {}
}
