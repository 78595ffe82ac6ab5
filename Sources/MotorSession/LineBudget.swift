// How much of the serial line a playing session's steady traffic takes each way, and how far apart its
// CLOCK requests must be so that the host's own traffic stays within a share of the line (the frames
// come first).

import MotorWire

/// The steady traffic of a session, in bytes per second each way, from the sizes of protocol.md's
/// messages: FRAMES batches answered by STATUS, a PLAYED report every `reportEvery` frames, and CLOCK
/// exchanges (request one way, reply the other).
struct LineBudget {
    /// Bytes the line carries per second: 10 bits per byte (start, 8 data, stop).
    var lineBytesPerSecond: Double
    /// The share of `lineBytesPerSecond` the session may use each way.
    var share: Double
    var frameRate: Int
    var format: DutyFormat
    var framesPerMessage: Int
    /// Frames per PLAYED report; 0 = none.
    var reportEvery: Int

    init(baud: Int, share: Double, frameRate: Int, format: DutyFormat, framesPerMessage: Int, reportEvery: Int) {
        lineBytesPerSecond = Double(baud) / 10
        self.share = share
        self.frameRate = frameRate
        self.format = format
        self.framesPerMessage = max(1, framesPerMessage)
        self.reportEvery = reportEvery
    }

    /// On the wire, a message is its payload plus the header, the CRC, COBS's one overhead byte (payloads
    /// up to 253 bytes) and the 0x00 delimiter.
    static func wireBytes(payload: Int) -> Int { payload + Wire.headerSize + Wire.crcSize + 2 }
    static let clockRequestBytes = wireBytes(payload: 4)
    static let clockReplyBytes = wireBytes(payload: 12)
    static let statusBytes = wireBytes(payload: Status.payloadSize)
    static let playedBytes = wireBytes(payload: Played.payloadSize)
    static let startBytes = wireBytes(payload: Start.payloadSize)
    /// Re-timing STARTs a second, budgeted: the session re-times the board whenever the clock estimate moves
    /// by more than 20 µs (measured at 1 kHz with exchanges every 50 ms: 1.3 a second).
    static let retimesPerSecond = 2.0

    var messagesPerSecond: Double { Double(frameRate) / Double(framesPerMessage) }

    /// Host to board without CLOCK requests: the frames, their messages' headers, and re-timing STARTs.
    var toBoardWithoutClock: Double {
        Double(frameRate * format.bytesPerValue)
            + messagesPerSecond * Double(LineBudget.wireBytes(payload: FramesBlock.headerSize))
            + LineBudget.retimesPerSecond * Double(LineBudget.startBytes)
    }

    /// Board to host without CLOCK replies: a STATUS per FRAMES and the PLAYED reports.
    var toHostWithoutClock: Double {
        messagesPerSecond * Double(LineBudget.statusBytes)
            + (reportEvery > 0 ? Double(frameRate) / Double(reportEvery) * Double(LineBudget.playedBytes) : 0)
    }

    /// The shortest CLOCK interval, in whole milliseconds within `fastestMs...slowestMs`, that keeps the
    /// host-to-board direction within the share; `slowestMs` when even that does not fit (the frames alone
    /// exceed it). Only that direction is budgeted: it carries the breath, and every repair and live change
    /// needs room on it. The board-to-host direction is reported (`use`), not budgeted: spacing CLOCK
    /// exchanges for it would cost timing at 250 Hz, where its STATUS and PLAYED already take 6 %.
    func clockIntervalMs(fastestMs: Int, slowestMs: Int) -> Int {
        let left = share * lineBytesPerSecond - toBoardWithoutClock
        let ms = left > 0 ? Int((Double(LineBudget.clockRequestBytes) / left * 1000).rounded(.up)) : Int.max
        return ms <= slowestMs ? max(ms, fastestMs) : fastestMs
    }

    /// Bytes per second each way with CLOCK exchanges every `clockMs`.
    func use(clockMs: Int) -> (toBoard: Double, toHost: Double) {
        let exchanges = 1000 / Double(clockMs)
        return (toBoardWithoutClock + exchanges * Double(LineBudget.clockRequestBytes),
                toHostWithoutClock + exchanges * Double(LineBudget.clockReplyBytes))
    }
}
