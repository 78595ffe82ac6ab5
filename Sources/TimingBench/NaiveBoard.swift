// The naive streamer's board: a hobby sketch reading Serial in its loop, applying each byte as the duty on
// arrival. It runs in the simulated world in place of BoardCore (a SimBoardFirmware) and logs every byte
// with its arrival tick on the board's clock, which is all NaiveStreamer judges.
// SPDX-License-Identifier: Apache-2.0

import SimBoard

/// A board that applies each received byte as the duty on arrival, with no framing, clock or buffer. Run
/// it in a world with `SimWorld(firmware: board)`; `log` is every byte it received, with its arrival tick.
///
///     let board = NaiveBoard()
///     let world = SimWorld(impairments: LinkImpairments(), firmware: board)
///     try world.hostLink.write([128], timeoutMs: 10)
///     world.run(until: 20_000_000)   // board.log == [(tick: ..., value: 128)]
public final class NaiveBoard: SimBoardFirmware, @unchecked Sendable {
    /// (arrival tick, byte) of every byte received, in order.
    public private(set) var log: [(tick: UInt64, value: UInt8)] = []

    public init() {}

    public func received(_ bytes: [UInt8], at tick: UInt64) {
        for b in bytes { log.append((tick, b)) }
    }
}
