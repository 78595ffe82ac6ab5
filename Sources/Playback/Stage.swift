// The boards of a session opened in one place: each port (auto resolved, the FTDI latency advice, the
// optional reset pulse) and each simulated board's world, every one of them on one time base.
// SPDX-License-Identifier: Apache-2.0

import BoardAccess
import HostPlatform
import MotorSession
import MotorWire
import SerialLink
import SimBoard

/// How a stage opens its boards: the port settings, and for simulated boards their pacing and seed.
public struct StageOptions: Sendable {
    /// Baud rate, driver and modem lines of every port.
    public var settings = LinkSettings()
    /// Pulse DTR low first (an Arduino's auto-reset wiring).
    public var resetBoard = false
    /// Set an FTDI adapter's latency timer to 1 ms (needs write access to sysfs).
    public var lowLatency = false
    /// Simulated boards: real time (the default) or virtual time (as fast as the CPU allows; every board of
    /// the layout must then be simulated).
    public var pacing: SimWorld.Pacing = .realTime
    /// Simulated boards: board k's link draws from `seed + k`.
    public var seed: UInt64 = 1

    public init() {}
}

/// One opened board of a stage: its name and connection.
public struct StagedBoard: Sendable {
    public let name: String
    public let connection: BoardConnection
}

/// A board that could not be opened: which, and why (one line).
public struct StageError: Error, Sendable, CustomStringConvertible {
    public var board: String
    public var reason: String
    /// Named for the user when the layout has several boards, bare for one.
    public var named: Bool
    public var description: String { named ? "board \(board): \(reason)" : reason }
}

/// The boards of one session, opened: the one place a simulated world is built for a command.
///
/// Every board is on one time base, so several boards can start at one instant: ports read the system's
/// monotonic clock, and simulated boards in real time count from that clock's origin when a port is in the
/// layout (from one shared instant otherwise); virtual worlds all begin at 0.
///
///     let stage = try Stage.open([NamedPlace("board", .simulated())], options: StageOptions())
///     defer { stage.close() }
///     let playback = Playback(stage, options: SessionOptions())
public final class Stage: @unchecked Sendable {
    public let boards: [StagedBoard]
    /// What opening said that a person should know (latency advice, a timer that could not be set).
    public let notes: [String]
    private var stopTokens: [Int] = []

    private init(boards: [StagedBoard], notes: [String]) {
        self.boards = boards
        self.notes = notes
        // A command made to exit by a second signal still sends each board a STOP.
        stopTokens = boards.map { b in StopSignal.onForcedExit { [link = b.connection.link] in Stage.emergencyStop(link) } }
    }

    /// Opens every board of `places`, in order; the first that cannot be opened closes the others and
    /// throws, naming it.
    public static func open(_ places: [NamedPlace], options: StageOptions = StageOptions()) throws(StageError) -> Stage {
        let hasPort = places.contains { if case .simulated = $0.place { false } else { true } }
        let epoch = hasPort ? 0 : MonotonicClock.nowNs()
        var opened: [StagedBoard] = []
        var notes: [String] = []
        for (k, p) in places.enumerated() {
            switch p.place {
            case .simulated(let impairments, let spec):
                let world = SimWorld(spec: spec, impairments: impairments, pacing: options.pacing,
                                     seed: p.seed ?? options.seed &+ UInt64(k), epochNs: options.pacing == .realTime ? epoch : nil)
                opened.append(StagedBoard(name: p.name, connection: .simulated(world)))
            case .simulatedThread(let spec):
                opened.append(StagedBoard(name: p.name, connection: .simulatedBoard(spec: spec)))
            case .port(let port):
                do {
                    let (connection, said) = try openPort(port, options: options)
                    opened.append(StagedBoard(name: p.name, connection: connection))
                    notes += said
                } catch {
                    opened.forEach { $0.connection.close() }
                    throw StageError(board: p.name, reason: error.text, named: places.count > 1)
                }
            }
        }
        return Stage(boards: opened, notes: notes)
    }

    /// One board at `place`, named "board".
    public static func open(_ place: BoardPlace, options: StageOptions = StageOptions()) throws(StageError) -> Stage {
        try open([NamedPlace("board", place)], options: options)
    }

    /// The port (`auto`: the one whose board answers), its advice, the reset pulse; errors are one line.
    private static func openPort(_ port: String, options: StageOptions) throws(OneLine) -> (BoardConnection, [String]) {
        let path: String
        do { path = try BoardConnection.resolve(port, settings: options.settings) } catch { throw OneLine(error.description) }
        var notes: [String] = []
        if options.lowLatency, !USBSerialTuning.setLowLatency(forPort: path), let timer = USBSerialTuning.latencyTimerPath(forPort: path) {
            notes.append("could not set the latency timer (run as root, or: echo 1 | sudo tee \(timer))")
        }
        if let advice = USBSerialTuning.advice(forPort: path) { notes.append(advice) }
        do {
            return (try BoardConnection.port(path, settings: options.settings, resetBoard: options.resetBoard), notes)
        } catch { throw OneLine(error.description) }
    }

    /// The one board of a layout of one.
    public var board: BoardConnection { boards[0].connection }

    /// Closes every board's link (a simulated board's thread stops).
    public func close() {
        stopTokens.forEach { StopSignal.remove($0) }
        stopTokens = []
        boards.forEach { $0.connection.close() }
    }

    /// A STOP written straight to `link` (best effort, from the forced-exit path: the session's own thread
    /// may be blocked, so no reply is awaited). The board's failsafe stops the motor anyway if it is lost.
    static func emergencyStop(_ link: ByteLink) {
        var wire = FixedBytes()
        guard HostMessage.stop(atIndex: HostMessage.stopNow).encode(seq: 0, into: &wire) else { return }
        var bytes = [Wire.delimiter]  // ends whatever partial frame the blocked thread left
        for i in 0..<wire.count { bytes.append(wire[i]) }
        try? link.write(bytes, timeoutMs: 100)
    }
}

/// A one-line error (the reason a port could not be opened).
struct OneLine: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
