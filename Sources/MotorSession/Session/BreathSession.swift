// A breath on a motor board in a few lines, for apps: open the port, prepare the board, render the breath
// shaped for its motor, play it on the board's clock (reconnecting if the board goes away), steer it
// while it plays, and stop with the motor off. The `motorbreath` command plays through it too.
//
//     let session = try BreathSession(port: "/dev/ttyUSB0")
//     session.onEvent = { event in print(event) }
//     let report = try session.play(try BreathPattern.parse("4-7-8"), loop: true)   // blocks; from another
//     session.change(.strength(0.5))                                                 // thread: change, stop
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorWire
import SerialLink

/// A breath on one motor board: prepare it, play a pattern on its clock, steer it while it plays, stop
/// with the motor off. `play` blocks its thread; `change` and `stop` may come from any other.
///
///     let session = try BreathSession(port: "/dev/ttyUSB0")          // or BreathSession(link: world.hostLink,
///     session.onEvent = { print($0) }                                  //    clock: world.hostClock) to simulate
///     DispatchQueue.global().asyncAfter(deadline: .now() + 5) { session.change(.strength(0.4)) }
///     let report = try session.play(try BreathPattern.parse("4-7-8"))
///     print(report.framesPlayed, report.framesLost, report.motorOffAtExit)
public final class BreathSession: @unchecked Sendable {
    public let channel: BoardChannel
    public var options: SessionOptions
    /// Reopens the port after an unplug (set by `init(port:)`; nil: a lost link ends the session).
    public var reopen: (() throws(LinkError) -> ByteLink)?
    /// The board's answers once prepared.
    public private(set) var prepared: Prepared?
    /// Phase starts and changes as they reach the motor (on the session's thread).
    public var onEvent: ((SessionEvent) -> Void)?
    /// About ten times a second while playing: the breath time, the board's STATUS, the link's health.
    public var onStatus: ((LiveStatus) -> Void)?
    /// Called once the session's player and frames exist, before the first frame is sent (for harnesses
    /// that watch a simulated board).
    public var willPlay: ((Player, FrameSource) -> Void)?
    /// Checked by the playing loop: return true to stop (motor off), as `stop()` does.
    public var shouldStop: () -> Bool = { false }
    /// Where `change` and `stop` go (other threads, a socket, keys may send to it directly).
    public let controls = ControlInbox()
    private var inbox: ControlInbox { controls }
    /// The player of the breath playing now (or last): its report is complete also after a failure.
    public private(set) var player: Player?
    /// Host time (on this session's clock) at which the next breath's frame 0 is to be felt, for boards
    /// started together (`BreathEnsemble`); nil: `options.startLeadMs` after `play` is called. Used once.
    public var startAtNs: UInt64?
    /// This board's place when several boards play one breath: where its swells fall and its strength
    /// (`BreathSpread`); nil: the breath as one board plays it. Shapes breath patterns, not fixed ones
    /// (an AHAP file plays as it is, its `gain` applied).
    public var spread: BreathSpread?
    /// Moves this board's breath later by this much (an actuator's own offset, `--actuator NAME:offset=`),
    /// from the start instant `startAtNs` gives: boards started together only (alone it has no effect).
    public var startOffsetNs: UInt64 = 0

    /// A session on a link already open (a simulated world's, a pty's, any ByteLink).
    public init(link: ByteLink, clock: HostClock = SystemClock(), options: SessionOptions = SessionOptions()) {
        channel = BoardChannel(link: link, clock: clock)
        self.options = options
        controls.clock = clock  // a change sent before the player exists is stamped on the session's clock too
    }

    /// A session on a serial port (libserialport for USB adapters, termios for ptys), reopened after an unplug.
    public convenience init(port path: String, settings: LinkSettings = LinkSettings(baud: 115_200),
                            options: SessionOptions = SessionOptions()) throws(LinkError) {
        self.init(link: try PortOpener.open(path: path, settings: settings), options: options)
        let node = PtyNode(path: path)  // a bare /dev/pts/N: a pty made at that number later is not the board's
        reopen = { () throws(LinkError) -> ByteLink in try PortOpener.reopen(path: path, settings: settings, node: node) }
    }

    /// HELLO, CONFIGURE and clock sync (`play` does it if it was not done).
    @discardableResult
    public func prepare() throws(SessionError) -> Prepared {
        // A stop or change left from an earlier breath goes now: what arrives once the board is prepared
        // (a client answering the `prepared` event at once) is kept for the breath that plays next.
        inbox.reset()
        let p = try channel.prepare(options: options)
        prepared = p
        return p
    }

    /// The motor the board says it drives (ERM or LRA), with the reference physics.
    public var motor: MotorProfile {
        prepared?.info.motorKind == .lra ? .referenceLRA : .referenceERM
    }

    /// Plays `pattern` (`options` its length, strength, cues...), shaped for `motor` (default: the
    /// board's) and within the board's drive ceiling when it reports one (LIMITS), and returns when it ends, was stopped, or failed (then it throws, the motor off as far as
    /// the link still works). With `loop`, it repeats until a `finishAfterThisBreath` change or `stop()`.
    public func play(_ pattern: BreathPattern, breath: BreathOptions = BreathOptions(), loop: Bool = false,
                     motor: MotorProfile? = nil, compensate: Bool = true, warmup: Double = 0.3,
                     feltRange: FeltRange? = nil, warmupMargin: Double = 1.5) throws(SessionError) -> PlayReport {
        let p: Prepared
        if let ready = prepared { p = ready } else { p = try prepare() }
        var plan = LivePlan(pattern: pattern, options: breath, loop: loop)
        plan.spread = spread
        let live = LiveFrames(plan: plan, frameRate: options.frameRate,
                              resolution: resolution(p), motor: motor ?? self.motor, compensate: compensate, warmup: warmup,
                              ceiling: p.limits?.driveCeiling, feltRange: feltRange, warmupMargin: warmupMargin)
        return try play(live, prepared: p)
    }

    /// Plays a fixed haptic pattern (an AHAP file's): it cannot be steered.
    public func play(pattern: HapticPattern, duration: Double, motor: MotorProfile? = nil, compensate: Bool = true,
                     warmup: Double = 0.3, feltRange: FeltRange? = nil, warmupMargin: Double = 1.5) throws(SessionError) -> PlayReport {
        let p: Prepared
        if let ready = prepared { p = ready } else { p = try prepare() }
        var scaled = pattern
        if let gain = spread?.gain, gain != 1 {
            for i in scaled.events.indices { scaled.events[i].intensity *= gain }
        }
        let renderer = FrameRenderer(pattern: scaled, duration: duration, frameRate: options.frameRate, resolution: resolution(p),
                                     motor: motor ?? self.motor, compensate: compensate, warmup: warmup,
                                     ceiling: p.limits?.driveCeiling, feltRange: feltRange, warmupMargin: warmupMargin)
        return try play(FrameWindow(renderer), prepared: p)
    }

    /// Changes the playing breath (from any thread; the latest change of a kind wins).
    public func change(_ change: BreathChange) { inbox.send(change) }

    /// Ends the playing breath now, motor off (from any thread).
    public func stop() { inbox.requestStop() }

    /// Stops the motor and releases the port (a session that never played, or after `play`).
    public func close() {
        _ = channel.stopNow(timeoutMs: options.replyTimeoutMs)
        channel.closeLink()
    }

    private func resolution(_ p: Prepared) -> DutyResolution { DutyResolution(p.config.dutyFormat) }

    private func play(_ frames: FrameSource, prepared p: Prepared) throws(SessionError) -> PlayReport {
        let player = Player(channel: channel, prepared: p, options: options, controls: inbox)
        self.player = player
        player.reopen = reopen
        player.onEvent = onEvent
        player.startAtNs = startAtNs.map { $0 + startOffsetNs }
        willPlay?(player, frames)
        defer {
            prepared = nil  // the board must be prepared again for another breath
            startAtNs = nil
        }
        return try player.play(frames, onStatus: { [onStatus] in onStatus?($0) }, shouldStop: shouldStop)
    }
}
