// `motorbreath info --port PATH`: what the board says about itself (INFO) and its state now (STATUS).

import ArgumentParser
import Foundation
import MotorSession
import MotorWire

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a board's capabilities (motor, PWM, buffer, frame rates, clock) and its state.",
        discussion: "Plays nothing: sends HELLO and a HEARTBEAT and prints the answers."
    )

    @OptionGroup(title: "Board connection") var connection: PortArguments

    @Flag(help: "Print JSON.")
    var json = false

    struct Output: Encodable {
        var port: String
        var name: String
        var firmware: String
        var protocolVersion: Int
        var motor: String
        var pwmBits: Int
        var capabilities: [String]
        var bufferFrames: Int
        var frameRateHz: [Int]
        var clockHz: Int
        var uniqueID: String
        var lraResonanceHz: Double?
        var state: String
        var output: Int
        var failsafeTrips: Int
        var rxErrors: Int

        enum CodingKeys: String, CodingKey {
            case port, name, firmware, protocolVersion = "protocol_version", motor, pwmBits = "pwm_bits", capabilities
            case bufferFrames = "buffer_frames", frameRateHz = "frame_rate_hz", clockHz = "clock_hz", uniqueID = "unique_id"
            case lraResonanceHz = "lra_resonance_hz", state, output, failsafeTrips = "failsafe_trips", rxErrors = "rx_errors"
        }
    }

    func run() throws {
        let port = try connection.resolvedPath()
        let link = try connection.open(port, quiet: json)
        defer { link.close() }
        let channel = BoardChannel(link: link)
        let info: Info
        let status: Status
        do {
            info = try channel.hello(timeoutMs: connection.bootWait)
            status = try channel.status(timeoutMs: 500)
        } catch { throw fail(error) }
        let out = Output(
            port: port, name: info.name.text, firmware: info.firmwareVersion, protocolVersion: Int(info.protocolVersion),
            motor: info.motorName, pwmBits: Int(info.pwmBits), capabilities: info.capabilityNames,
            bufferFrames: Int(info.bufferCapacity), frameRateHz: [Int(info.minFrameRateHz), Int(info.maxFrameRateHz)],
            clockHz: Int(info.clockHz), uniqueID: String(info.uniqueID, radix: 16),
            lraResonanceHz: info.lraResonanceDeciHz > 0 ? Double(info.lraResonanceDeciHz) / 10 : nil,
            state: "\(status.state)", output: Int(status.output), failsafeTrips: Int(status.failsafeTrips),
            rxErrors: Int(status.rxCRCErrors) + Int(status.rxOtherErrors))
        if json {
            try printJSON(out)
            return
        }
        print("board         \(out.name) (firmware \(out.firmware), protocol v\(out.protocolVersion)) on \(port)")
        print("motor         \(out.motor), PWM \(out.pwmBits) bits\(out.capabilities.isEmpty ? "" : ", " + out.capabilities.joined(separator: ", "))")
        if let hz = out.lraResonanceHz { print("resonance     \(hz) Hz") }
        print("buffer        \(out.bufferFrames) frames, frame rates \(out.frameRateHz[0])...\(out.frameRateHz[1]) Hz")
        print("clock         \(out.clockHz) Hz, unique id \(out.uniqueID)")
        print("state         \(out.state), output \(out.output), failsafe trips \(out.failsafeTrips), receive errors \(out.rxErrors)")
    }
}
