// `motorbreath latency`: how fast a change to a playing breath reaches the motor (strength, pause,
// resume at random instants), on the simulated board in virtual time or on a real port.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import MotorSession
import Playback
import SerialLink
import SimBoard
import TimingBench

struct LatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Measure how fast a live change (intensity, pause, resume) reaches the motor.",
        discussion: """
            Plays a looping box breath and changes it at random instants, then reports the time from each \
            change's arrival to the output of its first changed frame: as the host sees it (the board's tick \
            through the clock estimate) and, on the simulated board, on its true clock. Without --port it runs \
            in virtual time over --sim-link (default: a 16 ± 8 ms USB-serial link).

            Examples:
              motorbreath latency
              motorbreath latency --port /dev/pts/3 --changes 20
            """
    )

    @OptionGroup(title: "Board connection") var connection: PortArguments

    @Option(help: "Simulated link (without --port) (default: latency=16ms,jitter=8ms,drift=500ppm).", transform: SimLink.value)
    var simLink: SimLink = .usbSerial

    @Option(parsing: .unconditional, help: "How many changes to make, 1...10000 (default: 40).", transform: OptionValue.int(1...10_000))
    var changes: Int = 40

    @Option(parsing: .unconditional, help: "Random seed (the instants and the changes) (default: 1).", transform: OptionValue.uint64)
    var seed: UInt64 = 1

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        Signals.install()
        let impairments = simLink.impairments
        var simulated = connection.stageOptions
        simulated.pacing = .virtual
        simulated.seed = seed
        let stage = connection.port != nil ? try connection.openStage(quiet: json)
            : try openBoards([NamedPlace("board", .simulated(impairments: impairments))], options: simulated, quiet: json)
        defer { stage.close() }
        let board = stage.board
        let world = board.world
        let channel = board.channel()
        var options = connection.sessionOptions
        options.allowReverse = true
        options.linkProfile = board.linkProfile  // the adapter, as a session is told it
        let result: ControlLatencyResult
        do {
            let prepared = try channel.prepare(options: options)
            var playing = ControlLatency.defaultOptions
            playing.linkProfile = options.linkProfile
            result = try ControlLatency.run(channel: channel, prepared: prepared, world: world, count: changes, seed: seed, options: playing)
        } catch let e as SessionError { throw fail(e) }
        if json { return try printJSON(result) }
        print(result.lines(trueClock: world != nil).joined(separator: "\n"))
    }
}
