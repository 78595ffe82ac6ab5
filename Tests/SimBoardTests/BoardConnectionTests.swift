// The one place that picks the board: the simulated world (its clock is the session's, its link reached
// again through the reopen path), a simulated board on a thread, and a port (opened at its path, reopened the same way,
// refused with a typed error when it is not there).
// SPDX-License-Identifier: Apache-2.0

import BoardAccess
import MotorSession
import SerialLink
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(2))) struct BoardConnectionTests {
    @Test func theSimulatedWorldGivesTheSessionItsClockAndItsLinkBack() throws {
        let world = SimWorld(pacing: .virtual, seed: 3)
        let board = BoardConnection.simulated(world)
        defer { board.close() }
        #expect(board.world === world && board.portPath == nil)
        let session = board.session()
        let prepared = try session.prepare()
        #expect(prepared.info.name.text.hasPrefix("motorbreath-sim"))
        // Virtual time stands still between reads: the session's clock reads the world's time exactly.
        #expect(board.clock.nowNs() == world.hostClock.nowNs())
        #expect(session.reopen != nil)
        // The reopen path reaches the same board (after an unplug the session retries it until it answers).
        let reopen = try #require(board.reopen)
        let again = try reopen()
        let channel = BoardChannel(link: again, clock: board.clock)
        let hello = try channel.hello(timeoutMs: 3000)
        #expect(hello.name.text == prepared.info.name.text)
    }

    @Test func aSimulatedBoardOnAThreadIsOnTheSystemClockAndNeverReopened() throws {
        let board = BoardConnection.simulatedBoard()
        defer { board.close() }
        #expect(board.world == nil && board.portPath == nil && board.reopen == nil)
        #expect(board.clock is SystemClock)
        let prepared = try board.session().prepare()
        #expect(prepared.info.bufferCapacity > 0)
    }

    @Test func aPortIsOpenedAtItsPathOnTheSystemClockAndReopenedTheSameWay() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let resolved = try BoardConnection.resolve(pty.slavePath)
        #expect(resolved == pty.slavePath, "only auto is looked for")
        let board = try BoardConnection.port(pty.slavePath)
        defer { board.close() }
        #expect(board.portPath == pty.slavePath && board.world == nil && board.clock is SystemClock)
        try board.link.write([0x42])
        let first = try pty.read(maxBytes: 1, timeoutMs: 1000)
        #expect(first == [0x42])
        // The old link is closed first, as a session does before it reopens (the port is held exclusively).
        board.link.close()
        let reopen = try #require(board.reopen)
        let again = try reopen()
        defer { again.close() }
        try again.write([0x43])
        let second = try pty.read(maxBytes: 1, timeoutMs: 1000)
        #expect(second == [0x43])
    }

    @Test func aPortThatIsNotThereIsATypedError() {
        var refused: LinkError?
        do { _ = try BoardConnection.port("/dev/motorbreath-no-such-port") } catch { refused = error }
        guard case .noSuchPort(let path, _)? = refused else {
            Issue.record("expected noSuchPort, got \(String(describing: refused))")
            return
        }
        #expect(path == "/dev/motorbreath-no-such-port")
    }
}
