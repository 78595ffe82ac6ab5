// `motorbreath info --port PATH`: what the board says about itself (INFO) and its state now (STATUS).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Foundation
import MotorSession
import Playback
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
        /// "1.2": the revision the board announced ("1.0" when it announces none).
        var protocolRevision: String
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
        /// Received bytes the board lost before framing (STATUS rx_lost_bytes, revision 1.3); nil from an older board.
        var rxLostBytes: Int?
        var limits: LimitsOutput?

        enum CodingKeys: String, CodingKey {
            case port, name, firmware, protocolVersion = "protocol_version",
                 protocolRevision = "protocol_revision", motor, pwmBits = "pwm_bits", capabilities
            case bufferFrames = "buffer_frames", frameRateHz = "frame_rate_hz", clockHz = "clock_hz", uniqueID = "unique_id"
            case lraResonanceHz = "lra_resonance_hz", state, output, failsafeTrips = "failsafe_trips", rxErrors = "rx_errors"
            case rxLostBytes = "rx_lost_bytes", limits
        }
    }

    /// LIMITS, from a board with the drive-ceiling capability.
    struct LimitsOutput: Encodable {
        var ceilingLevel: Int
        var ceilingPercent: Double
        var overdriveMs: Int
        var recoveryMs: Int
        var availableMs: Int
        var ratedMv: Int
        var supplyMv: Int

        enum CodingKeys: String, CodingKey {
            case ceilingLevel = "ceiling_level", ceilingPercent = "ceiling_percent", overdriveMs = "overdrive_ms"
            case recoveryMs = "recovery_ms", availableMs = "available_ms", ratedMv = "rated_mv", supplyMv = "supply_mv"
        }
    }

    func run() throws {
        let stage = try connection.openStage(quiet: json)
        let board = stage.board
        defer { stage.close() }
        let port = board.portPath ?? ""
        let channel = board.channel()
        let info: Info
        let status: Status
        var limits: Limits?
        do {
            let plain = try channel.hello(timeoutMs: connection.bootWait)
            info = try channel.announcedInfo() ?? plain  // the revision, from a board that announces one
            status = try channel.status(timeoutMs: 500)
            if info.capabilities & Info.capLimits != 0 { limits = try channel.limits(timeoutMs: 500) }
        } catch { throw fail(error) }
        let out = Output(
            port: port, name: info.name.text, firmware: info.firmwareVersion, protocolVersion: Int(info.protocolVersion),
            protocolRevision: info.revisionText,
            motor: info.motorName, pwmBits: Int(info.pwmBits), capabilities: info.capabilityNames,
            bufferFrames: Int(info.bufferCapacity), frameRateHz: [Int(info.minFrameRateHz), Int(info.maxFrameRateHz)],
            clockHz: Int(info.clockHz), uniqueID: String(info.uniqueID, radix: 16),
            lraResonanceHz: info.lraResonanceDeciHz > 0 ? Double(info.lraResonanceDeciHz) / 10 : nil,
            state: "\(status.state)", output: Int(status.output), failsafeTrips: Int(status.failsafeTrips),
            rxErrors: Int(status.rxCRCErrors) + Int(status.rxOtherErrors),
            rxLostBytes: status.rxLostBytes.map { Int($0) },
            limits: limits.map {
                LimitsOutput(ceilingLevel: Int($0.ceilingLevel), ceilingPercent: (Double($0.ceilingLevel) / 327.67 * 10).rounded() / 10,
                             overdriveMs: Int($0.overdriveMs), recoveryMs: Int($0.recoveryMs), availableMs: Int($0.availableMs),
                             ratedMv: Int($0.ratedMillivolts), supplyMv: Int($0.supplyMillivolts))
            })
        if json {
            try printJSON(out)
            return
        }
        print("board         \(out.name) (firmware \(out.firmware), protocol \(out.protocolRevision)) on \(port)")
        print("motor         \(out.motor), PWM \(out.pwmBits) bits\(out.capabilities.isEmpty ? "" : ", " + out.capabilities.joined(separator: ", "))")
        if let hz = out.lraResonanceHz { print("resonance     \(hz) Hz") }
        print("buffer        \(out.bufferFrames) frames, frame rates \(out.frameRateHz[0])...\(out.frameRateHz[1]) Hz")
        print("clock         \(out.clockHz) Hz, unique id \(out.uniqueID)")
        if let l = out.limits {
            print("drive ceiling \(String(format: "%.0f", l.ceilingPercent)) % (\(l.ratedMv) mV motor on \(l.supplyMv) mV), overdrive up to \(l.overdriveMs) ms "
                + "then \(l.recoveryMs) ms at or below it (\(l.availableMs) ms available)")
        }
        print("state         \(out.state), output \(out.output), failsafe trips \(out.failsafeTrips), receive errors \(out.rxErrors)\(out.rxLostBytes.map { ", bytes lost \($0)" } ?? "")")
    }
}
