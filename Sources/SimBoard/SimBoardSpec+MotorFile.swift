// A simulated board carrying a motor file's physical motor and accelerometer (`sim-board --motor-file`).
// SPDX-License-Identifier: Apache-2.0

import MotorPhysics
import MotorWire

extension SimBoardSpec {
    /// The board drives `file`'s physical motor and reads its accelerometer (SENSE, capability bit 4): the
    /// motor kind, the motor, the sensor, and for an LRA the carrier INFO announces.
    public mutating func carry(_ file: MotorFile, noiseSeed: UInt64 = 41) {
        motor = file.kind == .lra ? .lra : .erm
        physicalMotor = file.makeMotor()
        accelerometer = file.sensor
        sensorNoiseSeed = noiseSeed
        if let hz = file.boardCarrierHz { lraResonanceDeciHz = UInt16(clamping: Int((hz * 10).rounded())) }
    }
}
