// The first line a child process writes: the boards the tests start (sim-board, the QEMU script, the simavr
// harness) print the port they opened there.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Reads `pipe` until its first newline (or end of file) and returns that line, trimmed.
public func firstLine(of pipe: Pipe) -> String {
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
    }
    return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
