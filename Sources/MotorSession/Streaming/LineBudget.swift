// How much of the serial line the host's steady traffic to the board takes, and how far apart its CLOCK
// requests must be so that it stays within a share of the line (the frames come first).
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// The host's steady traffic to the board, in bytes per second, from the sizes of protocol.md's messages:
/// FRAMES batches, re-timing STARTs and CLOCK requests.
struct LineBudget {
    /// Bytes the line carries per second: 10 bits per byte (start, 8 data, stop).
    var lineBytesPerSecond: Double
    /// The share of `lineBytesPerSecond` the host may use for its steady traffic to the board.
    var share: Double
    var frameRate: Int
    var format: DutyFormat
    var framesPerMessage: Int

    init(baud: Int, share: Double, frameRate: Int, format: DutyFormat, framesPerMessage: Int) {
        lineBytesPerSecond = Double(baud) / 10
        self.share = share
        self.frameRate = frameRate
        self.format = format
        self.framesPerMessage = max(1, framesPerMessage)
    }

    /// On the wire, a message is its payload plus the header, the CRC, COBS's one overhead byte (payloads
    /// up to 253 bytes) and the 0x00 delimiter.
    static func wireBytes(payload: Int) -> Int { payload + Wire.headerSize + Wire.crcSize + 2 }
    static let clockRequestBytes = wireBytes(payload: 4)
    static let startBytes = wireBytes(payload: Start.payloadSize)
    /// Re-timing STARTs a second, budgeted: the session re-times the board whenever the clock estimate moves
    /// by more than 20 µs, which with exchanges spaced to 50 ms at 1 kHz happens somewhat less than this.
    static let retimesPerSecond = 2.0

    var messagesPerSecond: Double { Double(frameRate) / Double(framesPerMessage) }

    /// Host to board without CLOCK requests: the frames, their messages' headers, and re-timing STARTs.
    var toBoardWithoutClock: Double {
        Double(frameRate * format.bytesPerValue)
            + messagesPerSecond * Double(LineBudget.wireBytes(payload: FramesBlock.headerSize))
            + LineBudget.retimesPerSecond * Double(LineBudget.startBytes)
    }

    /// The shortest CLOCK interval, in whole milliseconds within `fastestMs...slowestMs`, that keeps the
    /// host-to-board direction within the share; `fastestMs` when even `slowestMs` would not (the frames
    /// alone nearly fill the share: the budget is out of reach, and starving the clock would buy nothing).
    /// Only that direction is budgeted: it carries the breath, and every repair and live change needs room
    /// on it. The board-to-host direction is not: spacing the exchanges for it would cost timing at 250 Hz,
    /// where its STATUS and PLAYED already take 6 %.
    func clockIntervalMs(fastestMs: Int, slowestMs: Int) -> Int {
        let left = share * lineBytesPerSecond - toBoardWithoutClock
        let ms = left > 0 ? Int((Double(LineBudget.clockRequestBytes) / left * 1000).rounded(.up)) : Int.max
        return ms <= slowestMs ? max(ms, fastestMs) : fastestMs
    }
}
