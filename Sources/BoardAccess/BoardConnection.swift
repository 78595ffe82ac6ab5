// One place that picks the board a session plays on: the simulated world in this process, a simulated
// board on its own thread, or a serial port; how to reach it again after an unplug or a reset; its clock.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SerialLink
import SimBoard

/// The board a session plays on, picked in one place for every command and for apps: the simulated world
/// (``SimWorld``, real or virtual time), a simulated board on its own thread (``SimulatedBoard``), or a
/// serial port. It owns the link, knows the clock the session must read (the world's host clock in
/// simulation, the system's otherwise) and how to reopen the board after it was unplugged or reset.
///
/// It is a library of its own (BoardAccess) because it needs both the simulated board (SimBoard) and the
/// port path (SerialLink, and MotorSession's `BoardProbe` for `auto`), and neither of those modules should
/// depend on the other; an app that offers "simulated or real" imports this one library, as the CLI does.
///
///     let board = try BoardConnection.port("/dev/ttyUSB0")   // or .simulated(SimWorld())
///     defer { board.close() }
///     let session = board.session()
///     _ = try session.prepare()
public final class BoardConnection: @unchecked Sendable {
    /// What is at the other end of the link.
    public enum Board {
        /// The simulated world in this process (its time is the session's time).
        case world(SimWorld)
        /// A simulated board on its own thread, on the system clock.
        case simulatedBoard(SimulatedBoard)
        /// A serial port (a USB adapter or a pseudo-terminal), opened with `settings`.
        case port(path: String, settings: LinkSettings)
    }

    /// What the link reaches.
    public let board: Board
    /// The bytes to and from the board.
    public let link: ByteLink
    /// The clock the session reads: the world's host clock in simulation, the system's otherwise.
    public let clock: HostClock

    /// The pty a bare /dev/pts/N port was when opened (a reconnect must not take another program's).
    private let ptyNode: PtyNode?

    init(board: Board, link: ByteLink, clock: HostClock, ptyNode: PtyNode? = nil) {
        self.board = board
        self.link = link
        self.clock = clock
        self.ptyNode = ptyNode
    }

    /// The simulated world `world` (its host link and host clock).
    public static func simulated(_ world: SimWorld) -> BoardConnection {
        BoardConnection(board: .world(world), link: world.hostLink, clock: world.hostClock)
    }

    /// A simulated board on its own thread, reached through an in-memory link (conformance checks).
    public static func simulatedBoard(spec: SimBoardSpec = SimBoardSpec()) -> BoardConnection {
        let pair = SimulatedBoard.inProcess(spec: spec)
        return BoardConnection(board: .simulatedBoard(pair.board), link: pair.link, clock: SystemClock())
    }

    /// The serial port at `path` (not `auto`: see ``resolve(_:settings:)``), opened with `settings`; with
    /// `resetBoard`, DTR is pulsed low first (an Arduino's auto-reset wiring). Errors are one line.
    public static func port(_ path: String, settings: LinkSettings = LinkSettings(),
                            resetBoard: Bool = false) throws(LinkError) -> BoardConnection {
        let link = try PortOpener.open(path: path, settings: settings)
        if resetBoard, let lines = link as? ModemControl {
            do { try lines.pulseReset() } catch {
                link.close()
                throw error
            }
        }
        return BoardConnection(board: .port(path: path, settings: settings), link: link, clock: SystemClock(), ptyNode: PtyNode(path: path))
    }

    /// `port` as a path: `auto` becomes the one port whose board answers, anything else is returned as is.
    public static func resolve(_ port: String, settings: LinkSettings = LinkSettings()) throws(PortChoiceError) -> String {
        guard port == "auto" else { return port }
        return try BoardProbe.autoSelect(settings: settings).get()
    }

    /// The simulated world, when the board is one (frames can then be judged on its true clock).
    public var world: SimWorld? {
        if case .world(let world) = board { return world }
        return nil
    }

    /// The port's path, when the board is on one.
    public var portPath: String? {
        if case .port(let path, _) = board { return path }
        return nil
    }

    /// The board's link again after an unplug or a reset: the port reopened with the same settings, or the
    /// world's link (the world reconnects it itself). Nil for a simulated board on a thread (it never goes).
    public var reopen: (() throws(LinkError) -> ByteLink)? {
        switch board {
        case .world(let world): return { () throws(LinkError) -> ByteLink in world.hostLink }
        case .port(let path, let settings):
            let node = ptyNode
            return { () throws(LinkError) -> ByteLink in try PortOpener.reopen(path: path, settings: settings, node: node) }
        case .simulatedBoard: return nil
        }
    }

    /// The adapter between host and board as the host can know it: a port's from sysfs (FTDI and its
    /// latency timer, CH340, CP210x, CDC ACM), a simulated adapter link's as its model describes it; nil
    /// for a pty, an unknown chip, the plain simulated link.
    public var linkProfile: LinkProfile? {
        switch board {
        case .world(let world): return world.impairments.model?.profile
        case .port(let path, let settings): return USBSerialTuning.profile(forPort: path, baud: settings.baud)
        case .simulatedBoard: return nil
        }
    }

    /// A session on this board, on its clock, reopening the board as ``reopen`` says; told the adapter
    /// (``linkProfile``) unless `options` already name one.
    public func session(options: SessionOptions = SessionOptions()) -> BreathSession {
        var options = options
        if options.linkProfile == nil { options.linkProfile = linkProfile }
        let session = BreathSession(link: link, clock: clock, options: options)
        session.reopen = reopen
        return session
    }

    /// A channel on this board, on its clock (for commands that speak the protocol step by step).
    public func channel() -> BoardChannel { BoardChannel(link: link, clock: clock) }

    /// Closes the link (and stops a simulated board's thread).
    public func close() {
        link.close()
        if case .simulatedBoard(let board) = board { board.stop() }
    }
}
