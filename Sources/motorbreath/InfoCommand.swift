// `motorbreath info --port PATH`: what the board says about itself (INFO) and its state now (STATUS).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import MotorSession
import Playback

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a board's capabilities (motor, PWM, buffer, frame rates, clock) and its state.",
        discussion: "Plays nothing: sends HELLO and a HEARTBEAT and prints the answers."
    )

    @OptionGroup(title: "Board connection") var connection: PortArguments

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let stage = try connection.openStage(quiet: json)
        defer { stage.close() }
        let board: BoardDescription
        do { board = try stage.board.channel().describe(port: stage.board.portPath ?? "", helloTimeoutMs: connection.bootWait) } catch {
            throw fail(error)
        }
        if json { return try printJSON(board) }
        print(board.lines.joined(separator: "\n"))
    }
}
