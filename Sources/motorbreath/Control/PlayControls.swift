// Play's live controls, set up from its options: keys in a terminal, JSON lines on stdin/stdout
// (`--control -`), a Unix socket (`--control-socket`); the session's events go to every one of them.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorControl
import Glibc
import MotorSession
import Playback

final class PlayControls {
    let hub: ControlHub
    private var socket: ControlSocket?
    private var keys: KeyControl?
    private var stdout: StdoutEvents?

    init(hub: ControlHub) { self.hub = hub }

    func stop() {
        keys?.stop()
        keys = nil
        stdout?.flush(seconds: 5)  // the last events (finished) reach a reader that is still reading
        socket?.close()
        socket = nil
    }

    func attach(socketPath: String?, socketMode: mode_t, stdio: Bool, keys wantKeys: Bool) throws {
        if stdio {
            let out = StdoutEvents()
            stdout = out
            _ = hub.addSink { line in out.send(line) }
            _ = StdinControl(hub: hub) { line in out.send(line) }
        }
        if let socketPath { socket = try ControlSocket(path: socketPath, hub: hub, mode: socketMode) }
        if wantKeys { keys = KeyControl(hub: hub) }
    }

}

extension Play {
    /// The controls this run asked for (nil: none), steering `playback` (every board, or one board's own
    /// change), attached once the boards are prepared.
    func startControls(_ playback: Playback, _ content: PlaybackContent) throws -> PlayControls? {
        let stdio = control == "-"
        let keys = !noKeys && !stdio && !quiet && isatty(0) == 1
        guard stdio || controlSocket != nil || keys else { return nil }
        let hub = playback.makeHub(for: content)
        let controls = PlayControls(hub: hub)
        playback.attach(hub)  // before the first command can arrive
        do { try controls.attach(socketPath: controlSocket, socketMode: mode_t(controlMode.bits), stdio: stdio, keys: keys) } catch { throw fail("\(error)") }
        playback.greet()
        return controls
    }
}
