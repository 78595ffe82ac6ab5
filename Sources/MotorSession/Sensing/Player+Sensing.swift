// Sampling the board's vibration sensor while a session plays (SENSE at the start, SENSE rate 0 at the end),
// into the player's VibrationRecorder.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// What a session asks a board with a vibration sensor (INFO capability bit 4) to sample while it plays.
public struct SensingRequest: Sendable, Equatable {
    /// Samples per second (at most the board's SENSOR `max_rate_hz`).
    public var rateHz: UInt16
    /// `Sense.axisX` | `Sense.axisY` | `Sense.axisZ`.
    public var axes: UInt8
    /// Samples per SAMPLES message.
    public var batch: UInt8

    public init(rateHz: UInt16, axes: UInt8 = Sense.axisX, batch: UInt8 = 16) {
        self.rateHz = rateHz
        self.axes = axes
        self.batch = batch
    }
}

extension Player {
    /// SENSE as asked, when the board has a sensor; the recorder is made here if the caller gave none.
    func startSensing() throws(SessionError) {
        guard let r = sensing, prepared.info.capabilitySet.contains(.sensor) else { return }
        if vibration == nil { vibration = VibrationRecorder(clockHz: prepared.info.clockHz) }
        try channel.send(.sense(rateHz: r.rateHz, axes: r.axes, batch: r.batch))
    }

    /// SENSE rate 0 (best effort: the board also stops by itself 1000 ms after the host's last message).
    func stopSensing() {
        guard sensing != nil, prepared.info.capabilitySet.contains(.sensor) else { return }
        _ = try? channel.send(.sense(rateHz: 0, axes: 0, batch: 0))
    }

    /// SENSOR and SAMPLES go to the recorder (without one they are dropped).
    func sampled(_ m: BoardMessage) throws(SessionError) { vibration?.take(m) }

    /// The drive the board reported playing, for the recording.
    func recordDrive(_ p: Played, values: [UInt16]) {
        vibration?.played(p, values: values, format: prepared.config.dutyFormat, timebase: timing.timebase)
    }
}
