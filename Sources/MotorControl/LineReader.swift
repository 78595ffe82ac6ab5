// Splits a byte stream (standard input, a socket connection) into the control protocol's lines, with one
// limit for every way in: a line longer than `LineReader.limit` bytes is answered with an error naming
// the limit and skipped to its newline, never held whole (a 300 MB line costs 64 KiB, not 300 MB).
// SPDX-License-Identifier: Apache-2.0

/// Whole lines out of bytes as they arrive; over-long lines are reported once and discarded.
public struct LineReader: Sendable {
    /// The longest line taken, in bytes (without its newline).
    public static let limit = 65_536
    private var pending: [UInt8] = []
    /// Inside a line already found too long: bytes are dropped up to its newline.
    private var discarding = false

    enum Item: Equatable {
        case line(String)
        /// A line longer than the limit began (it is being discarded).
        case tooLong
    }

    public static var tooLongMessage: String {
        "line too long: a command line is at most \(limit) bytes (64 KiB); this one was discarded"
    }

    /// Takes in `bytes`; returns the complete lines (empty ones left out) and over-long-line notices.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Item] {
        var items: [Item] = []
        var rest = bytes
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 10)
            let chunk = rest[..<(newline ?? rest.endIndex)]
            if !discarding {
                if pending.count + chunk.count > LineReader.limit {
                    discarding = true
                    pending.removeAll(keepingCapacity: false)
                    items.append(.tooLong)
                } else {
                    pending += chunk
                }
            }
            guard let newline else { break }
            if !discarding && !pending.isEmpty { items.append(.line(String(decoding: pending, as: UTF8.self))) }
            pending.removeAll(keepingCapacity: true)
            discarding = false
            rest = rest[(newline + 1)...]
        }
        return items
    }
}
