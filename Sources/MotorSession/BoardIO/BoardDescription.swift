// What `motorbreath info` shows of a board: what it says about itself (INFO, LIMITS) and its state now
// (STATUS), asked in one exchange, as JSON fields and as readable lines.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire

/// A board as it describes itself: INFO (name, firmware, protocol revision, motor, PWM, capabilities,
/// buffer, frame rates, clock), LIMITS from a board with a drive ceiling, and STATUS now. Encodes as
/// `motorbreath info --json`; `lines` is its text.
///
///     let board = try channel.describe(port: "/dev/ttyUSB0", helloTimeoutMs: 3000)
///     print(board.lines.joined(separator: "\n"))
public struct BoardDescription: Encodable, Sendable {
    public var port: String
    public var name: String
    public var firmware: String
    public var protocolVersion: Int
    /// "1.2": the revision the board announced ("1.0" when it announces none).
    public var protocolRevision: String
    public var motor: String
    public var pwmBits: Int
    public var capabilities: [String]
    public var bufferFrames: Int
    public var frameRateHz: [Int]
    public var clockHz: Int
    public var uniqueID: String
    public var lraResonanceHz: Double?
    public var state: String
    public var output: Int
    public var failsafeTrips: Int
    public var rxErrors: Int
    /// Received bytes the board lost before framing (STATUS rx_lost_bytes, revision 1.3); nil from an older board.
    public var rxLostBytes: Int?
    public var limits: BoardLimitsDescription?

    enum CodingKeys: String, CodingKey {
        case port, name, firmware, protocolVersion = "protocol_version",
             protocolRevision = "protocol_revision", motor, pwmBits = "pwm_bits", capabilities
        case bufferFrames = "buffer_frames", frameRateHz = "frame_rate_hz", clockHz = "clock_hz", uniqueID = "unique_id"
        case lraResonanceHz = "lra_resonance_hz", state, output, failsafeTrips = "failsafe_trips", rxErrors = "rx_errors"
        case rxLostBytes = "rx_lost_bytes", limits
    }

    /// The description of a board on `port` from its answers.
    public init(port: String, info: Info, status: Status, limits: Limits?) {
        self.port = port
        name = info.name.text
        firmware = info.firmwareVersion
        protocolVersion = Int(info.protocolVersion)
        protocolRevision = info.revisionText
        motor = info.motorName
        pwmBits = Int(info.pwmBits)
        capabilities = info.capabilityNames
        bufferFrames = Int(info.bufferCapacity)
        frameRateHz = [Int(info.minFrameRateHz), Int(info.maxFrameRateHz)]
        clockHz = Int(info.clockHz)
        uniqueID = String(info.uniqueID, radix: 16)
        lraResonanceHz = info.lraResonanceDeciHz > 0 ? Double(info.lraResonanceDeciHz) / 10 : nil
        state = "\(status.state)"
        output = Int(status.output)
        failsafeTrips = Int(status.failsafeTrips)
        rxErrors = Int(status.rxCRCErrors) + Int(status.rxOtherErrors)
        rxLostBytes = status.rxLostBytes.map { Int($0) }
        self.limits = limits.map(BoardLimitsDescription.init)
    }

    /// As `motorbreath info` prints it: board, motor, resonance (an LRA), buffer, clock, drive ceiling, state.
    public var lines: [String] {
        var lines = [
            "board         \(name) (firmware \(firmware), protocol \(protocolRevision)) on \(port)",
            "motor         \(motor), PWM \(pwmBits) bits\(capabilities.isEmpty ? "" : ", " + capabilities.joined(separator: ", "))",
        ]
        if let hz = lraResonanceHz { lines.append("resonance     \(hz) Hz") }
        lines.append("buffer        \(bufferFrames) frames, frame rates \(frameRateHz[0])...\(frameRateHz[1]) Hz")
        lines.append("clock         \(clockHz) Hz, unique id \(uniqueID)")
        if let l = limits {
            lines.append("drive ceiling \(String(format: "%.0f", l.ceilingPercent)) % (\(l.ratedMv) mV motor on \(l.supplyMv) mV), overdrive up to \(l.overdriveMs) ms "
                + "then \(l.recoveryMs) ms at or below it (\(l.availableMs) ms available); full drive for ever: "
                + "a mean of \(String(format: "%.1f", l.fullDriveMeanPercent)) % (\(l.fullDriveMeanMv) mV)")
        }
        lines.append("state         \(state), output \(output), failsafe trips \(failsafeTrips), receive errors \(rxErrors)\(rxLostBytes.map { ", bytes lost \($0)" } ?? "")")
        return lines
    }
}

/// LIMITS, from a board with the drive-ceiling capability (`motorbreath info`'s "limits").
public struct BoardLimitsDescription: Encodable, Sendable {
    public var ceilingLevel: Int
    public var ceilingPercent: Double
    public var overdriveMs: Int
    public var recoveryMs: Int
    public var availableMs: Int
    public var ratedMv: Int
    public var supplyMv: Int
    /// What a host asking for full drive for ever gets, on average: percent of full drive and mV.
    public var fullDriveMeanPercent: Double
    public var fullDriveMeanMv: Int

    enum CodingKeys: String, CodingKey {
        case ceilingLevel = "ceiling_level", ceilingPercent = "ceiling_percent", overdriveMs = "overdrive_ms"
        case recoveryMs = "recovery_ms", availableMs = "available_ms", ratedMv = "rated_mv", supplyMv = "supply_mv"
        case fullDriveMeanPercent = "full_drive_mean_percent", fullDriveMeanMv = "full_drive_mean_mv"
    }

    /// The figures of `limits`, the ceiling also in percent of full drive (one decimal).
    public init(_ limits: Limits) {
        ceilingLevel = Int(limits.ceilingLevel)
        ceilingPercent = (Double(limits.ceilingLevel) / 327.67 * 10).rounded() / 10
        overdriveMs = Int(limits.overdriveMs)
        recoveryMs = Int(limits.recoveryMs)
        availableMs = Int(limits.availableMs)
        ratedMv = Int(limits.ratedMillivolts)
        supplyMv = Int(limits.supplyMillivolts)
        fullDriveMeanPercent = (limits.fullDriveMeanLevel / 327.67 * 10).rounded() / 10
        fullDriveMeanMv = Int((limits.fullDriveMeanLevel / 32767 * Double(limits.supplyMillivolts)).rounded())
    }
}

extension BoardChannel {
    /// Asks the board for INFO (waiting up to `helloTimeoutMs` for it to announce itself; the revision from a
    /// board that announces one), STATUS, and LIMITS when it has a drive ceiling. Plays nothing.
    public func describe(port: String, helloTimeoutMs: Int) throws(SessionError) -> BoardDescription {
        let plain = try hello(timeoutMs: helloTimeoutMs)
        let info = try announcedInfo() ?? plain
        let status = try status(timeoutMs: 500)
        let limits = info.capabilities & Info.capLimits != 0 ? try self.limits(timeoutMs: 500) : nil
        return BoardDescription(port: port, info: info, status: status, limits: limits)
    }
}
