// Small fixed queue of board-to-host messages waiting for the UART (no heap).
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

/// Up to 8 messages; when full, the newest is dropped and counted.
public struct Outbox: Sendable {
    public static let capacity = 8
    /// Vibration samples leave this many places free for replies and PLAYED (`sendBatch`).
    public static let keptFromSamples = 3
    private var items = InlineArray<8, BoardMessage>(repeating: .clock(token: 0, tick: 0))
    private var head = 0
    public private(set) var count = 0
    public private(set) var dropped: UInt32 = 0

    public init() {}

    public mutating func push(_ m: BoardMessage) {
        guard count < Outbox.capacity else {
            dropped &+= 1
            return
        }
        items[(head + count) % Outbox.capacity] = m
        count += 1
    }

    public mutating func pop() -> BoardMessage? {
        guard count > 0 else { return nil }
        let m = items[head]
        head = (head + 1) % Outbox.capacity
        count -= 1
        return m
    }
}
