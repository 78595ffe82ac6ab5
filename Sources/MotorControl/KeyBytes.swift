// The bytes a terminal sends for the keys that steer a breath: arrows (ESC [ A..D), space, f and q, read
// from raw input in any chunking (an arrow split across reads waits for its rest).
// SPDX-License-Identifier: Apache-2.0

extension ControlHub.Key {
    /// The keys in `pending`, removed from it; an arrow's first bytes without the rest stay for the next read.
    /// Other bytes are dropped.
    ///
    ///     var pending: [UInt8] = [0x1B, 0x5B, 0x41, 0x20]
    ///     ControlHub.Key.take(from: &pending)  // [.up, .space]
    public static func take(from pending: inout [UInt8]) -> [ControlHub.Key] {
        var keys: [ControlHub.Key] = []
        while !pending.isEmpty {
            if pending[0] == 0x1B {
                guard pending.count >= 3 else { break }  // the rest of an arrow key is on its way
                if pending[1] == UInt8(ascii: "["), let arrow = arrows[pending[2]] { keys.append(arrow) }
                pending.removeFirst(3)
                continue
            }
            if let key = letters[pending.removeFirst()] { keys.append(key) }
        }
        return keys
    }

    static let arrows: [UInt8: ControlHub.Key] = [UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left]
    static let letters: [UInt8: ControlHub.Key] = [UInt8(ascii: " "): .space, UInt8(ascii: "f"): .finish, UInt8(ascii: "F"): .finish,
                                                   UInt8(ascii: "q"): .quit, UInt8(ascii: "Q"): .quit]
}
