// Payload structs of the host-to-board messages (CONFIGURE, FRAMES, START), field for field as protocol.md.
// SPDX-License-Identifier: Apache-2.0

/// How duty values are packed in FRAMES (protocol.md "Duty formats").
public enum DutyFormat: UInt8, Sendable, CaseIterable {
    /// 0...255, 255 = full drive.
    case u8 = 1
    /// 0...65535, 65535 = full drive.
    case u16 = 2
    /// -32767...32767 two's complement; negative = reverse drive (braking), where the board can.
    case i16 = 3

    public var bytesPerValue: Int { self == .u8 ? 1 : 2 }
    /// Most values one FRAMES message can carry in this format.
    public var maxPerMessage: Int { (Wire.maxPayload - FramesBlock.headerSize) / bytesPerValue }
}

/// CONFIGURE: stream settings. Resets the stream: the board empties its buffer and expects index 0.
public struct Configure: Sendable, Equatable {
    public var frameRateHz: UInt16
    public var dutyFormat: DutyFormat
    public var failsafeMs: UInt16
    /// LRA carrier frequency in 0.1 Hz; 0 keeps the board's default. Ignored by ERM boards.
    public var lraResonanceDeciHz: UInt16
    public var flags: UInt8
    /// Send a PLAYED report every this many frames; 0 = no reports.
    public var reportEvery: UInt16

    public static let payloadSize = 10
    /// Flag bit: allow reverse drive (negative i16 values) for active braking.
    public static let flagAllowReverse: UInt8 = 0x01

    public init(frameRateHz: UInt16, dutyFormat: DutyFormat, failsafeMs: UInt16,
                lraResonanceDeciHz: UInt16 = 0, flags: UInt8 = 0, reportEvery: UInt16 = 0) {
        self.frameRateHz = frameRateHz
        self.dutyFormat = dutyFormat
        self.failsafeMs = failsafeMs
        self.lraResonanceDeciHz = lraResonanceDeciHz
        self.flags = flags
        self.reportEvery = reportEvery
    }
}

/// Fixed-capacity list of raw duty values (as sent: u8 values widened, i16 as bit patterns).
public struct DutyValues: Sendable {
    public static let capacity = 234
    @usableFromInline var storage = InlineArray<234, UInt16>(repeating: 0)
    public private(set) var count = 0

    public init() {}

    /// Inlined: out of line, reading one value copies all 234 (the cycle bench measured it).
    @inline(__always)
    public subscript(_ i: Int) -> UInt16 { storage[i] }

    /// All values through one pointer, for loops over them: on a Cortex-M, reading a `let` or a
    /// parameter value by value copies the whole storage for each read (the cycle bench measured
    /// about 1,000 instructions per value); this copies it once.
    @inline(__always)
    public func withUnsafeValues<R>(_ body: (UnsafeBufferPointer<UInt16>) -> R) -> R {
        var copy = storage
        let n = count
        return Swift.withUnsafeBytes(of: &copy) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt16.self), count: n))
        }
    }

    @discardableResult @inline(__always)
    public mutating func append(_ v: UInt16) -> Bool {
        guard count < DutyValues.capacity else { return false }
        storage[count] = v
        count += 1
        return true
    }
}

/// FRAMES: `values.count` consecutive duty values starting at frame `firstIndex`.
public struct FramesBlock: Sendable {
    public var firstIndex: UInt32
    public var format: DutyFormat
    public var values: DutyValues

    public static let headerSize = 6

    public init(firstIndex: UInt32, format: DutyFormat, values: DutyValues = DutyValues()) {
        self.firstIndex = firstIndex
        self.format = format
        self.values = values
    }
}

extension FramesBlock: Equatable {
    public static func == (a: FramesBlock, b: FramesBlock) -> Bool {
        guard a.firstIndex == b.firstIndex, a.format == b.format, a.values.count == b.values.count else {
            return false
        }
        for i in 0..<a.values.count where a.values[i] != b.values[i] { return false }
        return true
    }
}

/// START: sets the board timebase. Frame `anchorIndex` plays at board tick `anchorTick`, and
/// frame i at anchorTick + (i - anchorIndex) * periodQ32 / 2^32. A START while playing re-times
/// the stream without touching the buffer (drift correction).
public struct Start: Sendable, Equatable {
    public var anchorIndex: UInt32
    public var anchorTick: UInt64
    /// Board ticks per frame in unsigned 32.32 fixed point.
    public var periodQ32: UInt64

    public static let payloadSize = 20

    public init(anchorIndex: UInt32, anchorTick: UInt64, periodQ32: UInt64) {
        self.anchorIndex = anchorIndex
        self.anchorTick = anchorTick
        self.periodQ32 = periodQ32
    }
}
