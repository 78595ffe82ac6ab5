// What the simulated board's pin and play log record: the port BoardCore writes its levels and played
// frames to (WorldPort), one played frame (PlayRecord), and who hears of each as it plays (PlayObserver).
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire

/// One frame the board output, on its own clock.
public struct PlayRecord: Sendable {
    public var boot: Int
    public var index: UInt32
    public var due: UInt64
    public var tick: UInt64
    public var raw: UInt16
}

/// Receives every frame the simulated board plays, as it plays (so a long session can be judged without
/// keeping its frames). Called on the thread that moves the simulated world (the host's reads).
public protocol PlayObserver: AnyObject {
    func played(_ record: PlayRecord)
    /// A REPLACE reached the board at `tick`, when its next frame to play was `nextPlay`: the values for
    /// frames before it came after the board had output them (the board keeps what it played).
    func replaceArrived(boot: Int, block: FramesBlock, nextPlay: UInt32, tick: UInt64)
}

extension PlayObserver {
    public func replaceArrived(boot: Int, block: FramesBlock, nextPlay: UInt32, tick: UInt64) {}
}

/// The simulated board's port: drive changes (for the motor model) and every played frame (for timing).
public struct WorldPort: MotorPort, @unchecked Sendable {
    public var drive = SimMotorPort()
    /// Every frame played (when `recordPlays` is on; tests read it).
    public var plays: [PlayRecord] = []
    var recordPlays = true
    var observer: PlayObserver?
    var boot = 0

    public mutating func schedule(level: Int16, at tick: UInt64) { drive.schedule(level: level, at: tick) }
    public mutating func off(at tick: UInt64) { drive.off(at: tick) }
    public var sensor: SensorDescription? { drive.sensor }
    public mutating func readSensor(at tick: UInt64) -> SensorSample { drive.readSensor(at: tick) }
    public mutating func played(index: UInt32, due: UInt64, at tick: UInt64, raw: UInt16) {
        let record = PlayRecord(boot: boot, index: index, due: due, tick: tick, raw: raw)
        if recordPlays { plays.append(record) }
        observer?.played(record)
    }
}
