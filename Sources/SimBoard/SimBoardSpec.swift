// What the simulated board claims to be (INFO) and how its clock misbehaves, from command-line options.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorPhysics
import MotorWire

/// Settings for a simulated board.
public struct SimBoardSpec: Sendable {
    public var motor: MotorKind = .erm
    public var clockHz: UInt32 = 1_000_000
    public var driftPPM: Double = 0
    /// How fast the drift changes, ppm per minute.
    public var wanderPPMPerMinute: Double = 0
    public var offsetTicks: UInt64 = 123_456_789
    public var bufferCapacity: UInt16 = 1024
    /// How far ahead the board hands levels to its PWM (a DMA-fed timer on real hardware).
    public var outputLeadMs: Int = 20
    /// Keep the output lead in virtual time too (where the board is serviced exactly when it asks and needs
    /// none): a board whose next frame to output is a lead ahead of its clock, as a real one's is.
    public var leadInVirtualTime = false
    /// The motor's drive ceiling (BoardCore enforces it and answers LIMITS_REQ); nil: none, as before.
    public var limits: Limits? = nil
    /// The motor as physics, with an accelerometer on its mounting (SimSensor): the board then has a vibration
    /// sensor (capability bit 4, SENSE). nil: no sensor, as before.
    public var physicalMotor: (any PhysicalMotor)? = nil
    /// The accelerometer the sensor reads like (used only with `physicalMotor`).
    public var accelerometer = AccelerometerSpec()
    /// Seed of the accelerometer's noise (the same seed, the same readings).
    public var sensorNoiseSeed: UInt64 = 41
    /// An LRA board's carrier, 0.1 Hz (INFO `lra_resonance_dhz`; a motor file's resonance, else 175 Hz).
    public var lraResonanceDeciHz: UInt16 = 1750

    public init() {}

    /// The board's port: drive changes, and the sensor when `physicalMotor` is set.
    public func makeMotorPort() -> SimMotorPort {
        SimMotorPort(sensor: physicalMotor.map {
            SimSensor(motor: $0, spec: accelerometer, seed: sensorNoiseSeed, clockHz: clockHz)
        })
    }

    /// What its INFO announces: reverse drive and REPLACE always, the LRA carrier for an LRA, the drive
    /// ceiling when `limits` is set, the vibration sensor when `physicalMotor` is set.
    public var capabilities: Info.Capabilities {
        var caps: Info.Capabilities = [.reverse, .replace]
        if motor == .lra { caps.insert(.lraCarrier) }
        if limits != nil { caps.insert(.limits) }
        if physicalMotor != nil { caps.insert(.sensor) }
        return caps
    }

    /// The INFO it announces.
    public var info: Info {
        Info(firmwareMajor: MotorbreathVersion.major, firmwareMinor: MotorbreathVersion.minor,
             firmwarePatch: MotorbreathVersion.patch, motorKind: motor, pwmBits: 16,
             capabilities: capabilities.rawValue,
             bufferCapacity: bufferCapacity, minFrameRateHz: 50, maxFrameRateHz: 1000, clockHz: clockHz,
             uniqueID: 0x5349_4D42_4F41_5244,  // "SIMBOARD"
             lraResonanceDeciHz: motor == .lra ? lraResonanceDeciHz : 0,
             name: motor == .lra ? BoardName("motorbreath-sim-lra") : BoardName("motorbreath-sim-erm"))
    }
}
