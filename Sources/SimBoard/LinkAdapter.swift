// The state of a simulated USB-serial adapter (a LinkModel) on the world's clock: its UARTs, the bytes it
// holds for the host, its latency timer or the USB frame grid. SimWorld asks it when bytes arrive.
// SPDX-License-Identifier: Apache-2.0

/// One adapter between the simulated host and board, both directions, on the world's clock (ns).
struct LinkAdapter {
    let model: LinkModel
    /// USB frames start at `framePhaseNs + k * 1 ms` (the bus's own grid, unrelated to the host's timers).
    let framePhaseNs: UInt64
    /// When the adapter's UART towards the board is free again.
    private var toBoardUARTFree: UInt64 = 0
    /// When the board's UART towards the adapter is free again.
    private var fromBoardUARTFree: UInt64 = 0
    /// Bytes in the chip for the host, each with the time it fully arrived; `head` is the first not sent.
    private var held: [(at: UInt64, byte: UInt8)] = []
    private var head = 0
    /// FTDI: when its latency timer last restarted (expiries follow every `holdNs`); others: the frame grid.
    private var anchor: UInt64

    /// `phase` (0..<1 ms) places the USB frame grid; `timerPhase` (0..<hold) the FTDI timer's first expiry.
    init(model: LinkModel, phase: UInt64, timerPhase: UInt64) {
        self.model = model
        framePhaseNs = phase % LinkModel.usbFrameNs
        anchor = model.holdRestartsOnSend ? timerPhase % max(model.holdNs, 1) : framePhaseNs
    }

    /// The first USB frame boundary after `t` (strictly: what is queued at a frame's start, as a reply
    /// made the instant a frame's data arrived, waits for the next one).
    func nextFrame(after t: UInt64) -> UInt64 {
        let f = LinkModel.usbFrameNs
        guard t >= framePhaseNs else { return framePhaseNs }
        return framePhaseNs + ((t - framePhaseNs) / f + 1) * f
    }

    /// Host bytes written at `now`: out in the next USB frame, then over the UART. Returns when the last
    /// byte has reached the board (the board takes a chunk whole; a message is complete only at its end).
    mutating func toBoard(count: Int, now: UInt64) -> UInt64 {
        let atChip = nextFrame(after: now)
        guard model.hasUART else { return atChip }
        let start = max(atChip, toBoardUARTFree)
        toBoardUARTFree = model.uartDone(start: start, count: count)
        return toBoardUARTFree
    }

    /// Board bytes written at `now`: over the UART (if any) into the chip, where they wait to be sent.
    mutating func fromBoard(_ bytes: [UInt8], now: UInt64) {
        let start = max(now, fromBoardUARTFree)
        for (i, b) in bytes.enumerated() { held.append((model.uartDone(start: start, count: i + 1), b)) }
        if model.hasUART { fromBoardUARTFree = model.uartDone(start: start, count: bytes.count) }
    }

    /// When the chip next sends a packet to the host: when a packet fills, or when the hold runs out with
    /// at least one byte in; nil while it holds nothing.
    func nextSend() -> UInt64? {
        guard head < held.count else { return nil }
        let first = held[head].at
        let hold = model.holdNs
        // The first expiry (FTDI) or frame start strictly after the first byte came in.
        let n = first >= anchor ? (first - anchor) / hold + 1 : 1
        var at = anchor + n * hold
        if held.count - head >= model.packetBytes { at = min(at, held[head + model.packetBytes - 1].at) }
        return at
    }

    /// Sends the packet due at `at` (== nextSend()): the bytes in by then, at most one packet's worth.
    mutating func send(at: UInt64) -> [UInt8] {
        var packet: [UInt8] = []
        while head < held.count, held[head].at <= at, packet.count < model.packetBytes {
            packet.append(held[head].byte)
            head += 1
        }
        if model.holdRestartsOnSend { anchor = at }
        if head > 4096 {
            held.removeFirst(head)
            head = 0
        }
        return packet
    }

    /// Everything in flight is lost (cable out, board reset).
    mutating func clear(now: UInt64) {
        held.removeAll()
        head = 0
        fromBoardUARTFree = now
        toBoardUARTFree = now
    }
}
