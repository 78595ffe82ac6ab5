// Payload structs of the board-to-host messages (INFO, STATUS, NAK, PLAYED), field for field as protocol.md.
// SPDX-License-Identifier: Apache-2.0

/// The kind of motor the board drives.
public enum MotorKind: UInt8, Sendable, CaseIterable {
    case erm = 0
    case lra = 1
}

/// Short ASCII text stored inline (board name), at most `BoardName.capacity` bytes.
public struct BoardName: Sendable, Equatable {
    public static let capacity = 32
    @usableFromInline var storage = InlineArray<32, UInt8>(repeating: 0)
    public private(set) var count = 0

    public init() {}

    /// Keeps the first `capacity` bytes of `ascii`.
    public init(_ ascii: StaticString) {
        let p = ascii.utf8Start
        for i in 0..<min(ascii.utf8CodeUnitCount, BoardName.capacity) { append(p[i]) }
    }

    public subscript(_ i: Int) -> UInt8 { storage[i] }

    @discardableResult
    public mutating func append(_ byte: UInt8) -> Bool {
        guard count < BoardName.capacity else { return false }
        storage[count] = byte
        count += 1
        return true
    }

    public static func == (a: BoardName, b: BoardName) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.storage[i] != b.storage[i] { return false }
        return true
    }
}

/// INFO: the board announces itself (at boot and in answer to HELLO).
public struct Info: Sendable, Equatable {
    public var protocolVersion: UInt8
    public var firmwareMajor: UInt8
    public var firmwareMinor: UInt8
    public var firmwarePatch: UInt8
    public var motorKind: MotorKind
    public var pwmBits: UInt8
    public var capabilities: UInt8
    public var bufferCapacity: UInt16
    public var minFrameRateHz: UInt16
    public var maxFrameRateHz: UInt16
    public var clockHz: UInt32
    public var uniqueID: UInt64
    public var lraResonanceDeciHz: UInt16
    public var name: BoardName
    /// The board's protocol revision of version 1 (2 = revision 1.2), from INFO's extension after the name;
    /// nil for an INFO without one (a HELLO without `host_revision`, or a board older than revision 1.2).
    public var revision: UInt8? = nil

    /// Bytes of INFO's extension (after the name) a board sends to a host that reads `revision`:
    /// revision 1.2 adds the revision byte. Later revisions append their fields (section 10).
    public static func extensionSize(revision: UInt8) -> Int { revision >= 2 ? 1 : 0 }

    /// Capability bit: the driver can reverse the motor (H-bridge), so braking works.
    public static let capReverse: UInt8 = 0x01
    /// Capability bit: the board synthesises the LRA carrier itself.
    public static let capLRACarrier: UInt8 = 0x02
    /// Capability bit: the board enforces a drive ceiling and answers LIMITS_REQ with LIMITS.
    public static let capLimits: UInt8 = 0x04
    /// Capability bit 3: takes REPLACE (overwrites buffered frames not yet output).
    public static let capReplace: UInt8 = 0x08
    /// Capability bit 4 (revision 1.5): has a vibration sensor and takes SENSE.
    public static let capSensor: UInt8 = 0x10
    /// Payload bytes before the name bytes.
    public static let fixedSize = 28

    public init(protocolVersion: UInt8 = Wire.version, firmwareMajor: UInt8, firmwareMinor: UInt8,
                firmwarePatch: UInt8, motorKind: MotorKind, pwmBits: UInt8, capabilities: UInt8,
                bufferCapacity: UInt16, minFrameRateHz: UInt16, maxFrameRateHz: UInt16,
                clockHz: UInt32, uniqueID: UInt64, lraResonanceDeciHz: UInt16, name: BoardName,
                revision: UInt8? = nil) {
        self.protocolVersion = protocolVersion
        self.firmwareMajor = firmwareMajor
        self.firmwareMinor = firmwareMinor
        self.firmwarePatch = firmwarePatch
        self.motorKind = motorKind
        self.pwmBits = pwmBits
        self.capabilities = capabilities
        self.bufferCapacity = bufferCapacity
        self.minFrameRateHz = minFrameRateHz
        self.maxFrameRateHz = maxFrameRateHz
        self.clockHz = clockHz
        self.uniqueID = uniqueID
        self.lraResonanceDeciHz = lraResonanceDeciHz
        self.name = name
        self.revision = revision
    }
}

extension Info {
    /// INFO's capability bits as a set; the wire's byte is `capabilities` (`Info.capReverse` and the other
    /// `cap` constants are the same bits, for C headers and byte-level code).
    ///
    ///     if info.capabilitySet.contains(.replace) { ... }   // the board takes REPLACE
    public struct Capabilities: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bit 0: the driver can reverse the motor (H-bridge), so braking works.
        public static let reverse = Capabilities(rawValue: 0x01)
        /// Bit 1: the board synthesises the LRA carrier itself.
        public static let lraCarrier = Capabilities(rawValue: 0x02)
        /// Bit 2: the board enforces a drive ceiling and answers LIMITS_REQ with LIMITS.
        public static let limits = Capabilities(rawValue: 0x04)
        /// Bit 3: takes REPLACE (overwrites buffered frames not yet output).
        public static let replace = Capabilities(rawValue: 0x08)
        /// Bit 4 (revision 1.5): has a vibration sensor and takes SENSE (SENSOR, SAMPLES).
        public static let sensor = Capabilities(rawValue: 0x10)
    }

    /// `capabilities` as a set.
    public var capabilitySet: Capabilities {
        get { Capabilities(rawValue: capabilities) }
        set { capabilities = newValue.rawValue }
    }
}

/// Board playback state, as reported in STATUS.
public enum BoardState: UInt8, Sendable, CaseIterable {
    /// Not configured yet, or stopped: motor off.
    case idle = 0
    /// Configured, frames may be buffered, START not received yet.
    case configured = 1
    /// START received, waiting for the first frame's tick.
    case armed = 2
    /// Playing frames.
    case playing = 3
    /// The failsafe fired (no valid traffic for failsafe_ms): motor off until CONFIGURE.
    case failsafe = 4
}

/// STATUS: the board's buffer and counters. Sent for FRAMES, HEARTBEAT, CONFIGURE, START, STOP.
public struct Status: Sendable, Equatable {
    public var state: BoardState
    /// Sequence number of the message this STATUS answers.
    public var ackSeq: UInt8
    /// Frames buffered and not yet played.
    public var fill: UInt16
    /// Frames the board can accept right now.
    public var free: UInt16
    /// The next frame index the board expects (all lower indices were received).
    public var nextExpected: UInt32
    /// The next frame index the board will play.
    public var nextPlay: UInt32
    public var underruns: UInt32
    public var lateFrames: UInt32
    public var duplicateFrames: UInt32
    public var rxCRCErrors: UInt16
    public var rxOtherErrors: UInt16
    public var failsafeTrips: UInt16
    /// Board clock when the STATUS was made.
    public var tick: UInt64
    /// The drive level being output now (-32767...32767).
    public var output: Int16
    /// Received bytes lost before framing since boot (UART overruns, receive-buffer overflows), wrapping;
    /// revision 1.3 appends it, for a host whose HELLO named revision 1.3 or later. nil: not sent.
    public var rxLostBytes: UInt32?

    /// The payload up to revision 1.2 (and to a host that named no later revision).
    public static let payloadSize = 42
    /// With revision 1.3's `rx_lost_bytes`.
    public static let payloadSizeLost = 46
    /// The first revision whose STATUS carries `rx_lost_bytes`.
    public static let lostBytesRevision: UInt8 = 3

    public init(state: BoardState, ackSeq: UInt8, fill: UInt16, free: UInt16, nextExpected: UInt32,
                nextPlay: UInt32, underruns: UInt32, lateFrames: UInt32, duplicateFrames: UInt32,
                rxCRCErrors: UInt16, rxOtherErrors: UInt16, failsafeTrips: UInt16, tick: UInt64,
                output: Int16, rxLostBytes: UInt32? = nil) {
        self.state = state
        self.ackSeq = ackSeq
        self.fill = fill
        self.free = free
        self.nextExpected = nextExpected
        self.nextPlay = nextPlay
        self.underruns = underruns
        self.lateFrames = lateFrames
        self.duplicateFrames = duplicateFrames
        self.rxCRCErrors = rxCRCErrors
        self.rxOtherErrors = rxOtherErrors
        self.failsafeTrips = failsafeTrips
        self.tick = tick
        self.output = output
        self.rxLostBytes = rxLostBytes
    }
}

/// NAK reasons (protocol.md "NAK codes").
public enum NakCode: UInt8, Sendable, CaseIterable {
    /// The message decoded but its payload was invalid for its type.
    case badMessage = 1
    /// FRAMES skipped past a hole (kept anyway): detail = the first missing index.
    case gap = 2
    /// FRAMES beyond the buffer: detail = the index the board expects next.
    case bufferFull = 3
    /// FRAMES or START before CONFIGURE.
    case notConfigured = 4
    /// CONFIGURE values the board cannot do: detail = 1 rate, 2 format, 3 failsafe.
    case badConfig = 5
    /// A host-to-board type code this board does not know: detail = the type code.
    case unknownType = 6
}

/// NAK: a message was refused.
public struct Nak: Sendable, Equatable {
    public var code: NakCode
    public var refSeq: UInt8
    public var refType: UInt8
    public var detail: UInt32

    public static let payloadSize = 7

    public init(code: NakCode, refSeq: UInt8, refType: UInt8, detail: UInt32) {
        self.code = code
        self.refSeq = refSeq
        self.refType = refType
        self.detail = detail
    }
}

/// PLAYED: what the board actually output for `count` consecutive frames from `firstIndex`,
/// measured on its own clock.
public struct Played: Sendable, Equatable {
    public var firstIndex: UInt32
    public var count: UInt16
    /// Frames among these that were output after their scheduled tick.
    public var lateCount: UInt16
    /// Largest (output tick - scheduled tick) among them, in board ticks.
    public var maxLateTicks: UInt32
    /// CRC-16/CCITT-FALSE over the raw duty values played, each as 2 little-endian bytes
    /// (an underrun plays and counts as 0).
    public var dutyCRC: UInt16
    /// Board tick at which `firstIndex` was output.
    public var firstTick: UInt64

    public static let payloadSize = 22

    public init(firstIndex: UInt32, count: UInt16, lateCount: UInt16, maxLateTicks: UInt32,
                dutyCRC: UInt16, firstTick: UInt64) {
        self.firstIndex = firstIndex
        self.count = count
        self.lateCount = lateCount
        self.maxLateTicks = maxLateTicks
        self.dutyCRC = dutyCRC
        self.firstTick = firstTick
    }
}
