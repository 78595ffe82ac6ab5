// `motorbreath serve`: plays a breath as `play` does and serves a page that shows it (the breath circle)
// and steers it, over a WebSocket speaking the control protocol (the same ControlHub as --control-socket).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import BreathWeb
import Glibc
import MotorControl
import MotorSession
import Playback
import SimBoard

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Play a breath and show it in a browser: the breath circle, strength and pace, from any page.",
        discussion: """
            Plays the breath as `motorbreath play` does (repeating it until stopped, unless --cycles or \
            --minutes give it a length) and serves a page that shows it: a circle that grows \
            with the inhale and shrinks with the exhale, the phase, the seconds left, the cycle, and sliders \
            for strength and pace, a palette square, and a pattern preview: pick a preset or drop an AHAP \
            file, see it, play it on the board (a file plays in the breath's place, then the breath starts \
            again), export it. Open the printed URL. The page speaks the control protocol of \
            docs/control.md over a WebSocket at /ws, so every change goes through the same checks as the \
            command line's.

            Safe by default: it listens on 127.0.0.1 only. --listen 0.0.0.0 lets a phone on your network in; \
            the URL then carries a random token, printed, without which nothing is served. A page from \
            another site in the same browser cannot steer the motor (the WebSocket checks Origin and Host).

            Examples:
              motorbreath serve --simulate                  # then open the printed URL
              motorbreath serve --port /dev/ttyUSB0 --pattern box --cycles 10
              motorbreath serve --simulate --listen 0.0.0.0 --stop-when-closed
              motorbreath serve --simulate --palette        # a steady vibration the palette square steers
            """
    )

    @OptionGroup var board: BoardArguments

    @OptionGroup var breath: BreathArguments

    @OptionGroup(title: "Calibration") var calibration: ProfileArguments

    /// A page is opened after the URL is printed: the breath repeats until stopped (the page's Stop, Ctrl-C,
    /// --stop-when-closed) unless --cycles or --minutes give it a length.
    var loop: Bool { palette || (breath.cycles == nil && breath.minutes == nil) }

    @Flag(help: "Play a steady vibration instead of a breath: the page's palette square sets its intensity (up) and sharpness (right) while it plays, as `motorbreath palette` does in a terminal.")
    var palette = false

    @Option(help: ArgumentHelp("The address to listen on: 127.0.0.1 (this machine only), 0.0.0.0 (every network of this machine), or one address; any but 127.0.0.1 and ::1 requires the printed token.", valueName: "address"))
    var listen = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The HTTP port (0: any free port, printed) (default: 8780).", transform: OptionValue.int(0...65_535))
    var httpPort: Int = 8780

    @Flag(help: "Stop the breath, motor off, when the last open page closes.")
    var stopWhenClosed = false

    @Option(parsing: .unconditional, help: "At most this many connections at once: pages, their WebSockets, requests; one more is answered 503 (default: 256).", transform: OptionValue.int(1...65_535))
    var maxConnections: Int = 256

    func validate() throws {
        var v4 = in_addr(), v6 = in6_addr()
        guard inet_pton(AF_INET, listen, &v4) == 1 || inet_pton(AF_INET6, listen, &v6) == 1 else {
            throw ValidationError("--listen takes an IP address such as 127.0.0.1, 0.0.0.0 or ::1, got \(listen)")
        }
        guard breath.ahap == nil else { throw ValidationError("serve plays breath patterns; play an AHAP file with motorbreath play --ahap") }
        guard !palette || (breath.pattern == nil && breath.cycles == nil && breath.minutes == nil) else {
            throw ValidationError("--palette plays a steady vibration until stopped: it takes no --pattern, --cycles or --minutes")
        }
    }

    /// Only 127.0.0.1 and ::1 go without a token: any other address (0.0.0.0, a LAN address, even
    /// 127.0.0.2) requires it.
    var needsToken: Bool { !(listen == "127.0.0.1" || listen == "::1") }

    func run() throws {
        Signals.install()
        let built = try breath.build()
        guard let breathPlan = built.plan else { throw fail("serve plays breath patterns") }
        let plan = palette ? BreathPlan(pattern: .steady, options: .steady(intensity: 0.5, sharpness: breathPlan.options.sharpness))
            : breathPlan
        printNotices(built.notices)
        // A port in use is refused before the board is touched (opening an Arduino's port resets it).
        do { try BreathWebServer.checkFree(host: listen, port: UInt16(httpPort)) } catch { throw fail("\(error)") }
        let place: BoardPlace = board.simulate ? .simulated() : .port(board.connection.port ?? "auto")
        let stage = try openBoards([NamedPlace("board", place)], options: board.connection.stageOptions, quiet: false)
        defer { stage.close() }
        let playback = makePlayback(stage, plan)
        let token = needsToken ? WebGuard.newToken() : nil
        let server: BreathWebServer
        let port: UInt16
        do {
            server = try BreathWebServer(hub: playback.hub!, host: listen, port: UInt16(httpPort), token: token,
                                         limits: ServerLimits(maxConnections: maxConnections))
            port = try server.start()
        } catch { throw fail("\(error)") }
        defer { server.stop() }
        let session = ServeSession(playback: playback, server: server, loop: loop, stopWhenClosed: stopWhenClosed)
        session.say = { Stderr.write($0 + "\n") }
        printURLs(port: port, token: token)
        guard let end = session.run(plan) else { return }
        throw end.line.map { fail($0) } ?? ExitCode(end.status)
    }

    /// The playback and its hub: braking on an ERM board with an H-bridge, as `play` and the page's preview
    /// shape it; the board's calibration profile (unless --profile says otherwise), as in play.
    func makePlayback(_ stage: Stage, _ plan: BreathPlan) -> Playback {
        var options = board.connection.sessionOptions
        options.allowReverse = true
        var shaping = Shaping()
        shaping.profiles = calibration.lookup
        let playback = Playback(stage, options: options, shaping: shaping)
        // The palette's level is its intensity alone (base 1), as in `motorbreath palette`.
        let controls = ControlHub(inbox: playback.inbox, pattern: plan.pattern, strength: palette ? 1 : plan.options.strength,
                                  sharpness: plan.options.sharpness)
        if palette {
            controls.arrowsChangeSharpness = true  // as the terminal palette: no pace or pattern; finish stops
            controls.handle(.intensity(plan.options.strength))
        }
        if !loop { controls.cycles = LivePlan(pattern: plan.pattern, options: plan.options).cycles }
        playback.attach(controls)
        return playback
    }

    /// "open URL" per address, unbuffered, one line each (a script, or a test, waits for the first); with a
    /// token, the first as a QR code.
    func printURLs(port: UInt16, token: String?) {
        let urls = ServeURLs.urls(listen: listen, port: port, token: token)
        for url in urls {
            let line = "open \(url)\n"
            _ = line.withCString { Glibc.write(1, $0, strlen($0)) }
        }
        if token != nil, let first = urls.first { ServeURLs.printQRCode(first) }
    }
}
