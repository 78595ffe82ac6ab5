// The simulated line between host and board: a byte queue each way, what LinkImpairments does to the
// bytes (garbage bursts, loss, corruption, duplication, latency and jitter), and the USB-serial adapter
// when the impairments name a model (LinkAdapter). It knows no board and no clock but the world's time.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// Both directions of the simulated link. Every draw comes from the world's one random stream, passed in
/// (`draws`): the bootloader's noise shares it, and a seed's runs depend on the draws' order, which is:
/// per chunk sent, a burst (when set), then per byte drop, corrupt (and its bit), duplicate, then the
/// chunk's jitter; per adapter packet, its jitter.
struct SimLine {
    /// What the line does to bytes, each direction (the world's `impairments`).
    var impairments: LinkImpairments
    /// Bytes put on the line each way, before the impairments.
    private(set) var bytesToBoard = 0
    private(set) var bytesToHost = 0

    /// A chunk in flight: due at the far end at `at`.
    typealias Chunk = (at: HostNanos, bytes: [UInt8])
    private var toBoard: [Chunk] = []
    private var toHost: [Chunk] = []
    private var lastToBoard = HostNanos.zero
    private var lastToHost = HostNanos.zero
    /// The USB-serial adapter when `impairments.model` names one (built on first use, from `adapterSeed`:
    /// its own stream, so the plain link's draws stay as they were).
    private var adapter: LinkAdapter?
    private let adapterSeed: UInt64

    init(impairments: LinkImpairments, adapterSeed: UInt64) {
        self.impairments = impairments
        self.adapterSeed = adapterSeed
    }

    // MARK: - the queues

    /// When the next chunk reaches the board, the host, or the adapter sends a packet.
    var nextToBoard: HostNanos? { toBoard.first?.at }
    var nextToHost: HostNanos? { toHost.first?.at }
    var nextAdapterSend: HostNanos? { adapter?.nextSend().map(HostNanos.init) }

    /// Bytes written by the host and not yet taken by the board.
    var bytesInFlightToBoard: Int { toBoard.reduce(0) { $0 + $1.bytes.count } }

    /// True when bytes for the host are due by `now`.
    func hostHasData(by now: HostNanos) -> Bool { toHost.first.map { $0.at <= now } ?? false }

    /// Takes the next chunk due at the board by `now` (whole: the board takes a chunk at once).
    mutating func takeForBoard(by now: HostNanos) -> [UInt8]? {
        guard let first = toBoard.first, first.at <= now else { return nil }
        toBoard.removeFirst()
        return first.bytes
    }

    /// Takes the chunks due at the host by `now`, whole, up to `maxBytes` (always at least one chunk).
    mutating func takeForHost(maxBytes: Int, by now: HostNanos) -> [UInt8] {
        var out: [UInt8] = []
        while let first = toHost.first, first.at <= now, out.count + first.bytes.count <= maxBytes || out.isEmpty {
            toHost.removeFirst()
            out += first.bytes
        }
        return out
    }

    /// The cable is pulled: everything in flight, both ways and in the adapter, is lost.
    mutating func cut(now: HostNanos) {
        toBoard.removeAll()
        toHost.removeAll()
        adapter?.clear(now: now.ns)
    }

    /// The board resets: what it had in flight towards the host (on the line and in the adapter) is lost.
    mutating func dropFromBoard(now: HostNanos) {
        toHost.removeAll()
        adapter?.clear(now: now.ns)
    }

    // MARK: - sending

    /// Queues bytes for the other side through the impairments (FIFO: nothing overtakes).
    mutating func send(_ bytes: [UInt8], toHost: Bool, now: HostNanos, draws rng: inout SplitMix64) {
        if toHost { bytesToHost += bytes.count } else { bytesToBoard += bytes.count }
        var data: [UInt8] = []
        data.reserveCapacity(bytes.count)
        if impairments.burstPerChunk > 0 && rng.unit() < impairments.burstPerChunk {
            for _ in 0..<(1 + rng.next() % 32) { data.append(UInt8(truncatingIfNeeded: rng.next())) }
        }
        for b in bytes {
            if impairments.dropPerByte > 0 && rng.unit() < impairments.dropPerByte { continue }
            var v = b
            if impairments.corruptPerByte > 0 && rng.unit() < impairments.corruptPerByte { v ^= 1 << UInt8(rng.next() % 8) }
            data.append(v)
            if impairments.duplicatePerByte > 0 && rng.unit() < impairments.duplicatePerByte { data.append(v) }
        }
        if var a = adapterFor() {
            // The adapter's mechanics set the times: to the board in the next USB frame plus the UART; to the
            // host through the chip's buffer, released as packets by `releaseAdapterPackets`.
            if toHost {
                a.fromBoard(data, now: now.ns)
                adapter = a
            } else {
                let at = a.toBoard(count: data.count, now: now.ns)
                adapter = a
                queue(data, toHost: false, at: HostNanos(at), draws: &rng)
            }
            return
        }
        var delay = Double(impairments.latencyNs)
        if impairments.jitterNs > 0 { delay += (rng.unit() * 2 - 1) * Double(impairments.jitterNs) }
        let due = now + UInt64(max(0, delay))
        if toHost {
            lastToHost = max(lastToHost, due)
            self.toHost.append((lastToHost, data))
        } else {
            lastToBoard = max(lastToBoard, due)
            toBoard.append((lastToBoard, data))
        }
    }

    /// Moves the packets the adapter has sent by `now` to the host's side of the line.
    mutating func releaseAdapterPackets(now: HostNanos, draws rng: inout SplitMix64) {
        guard adapter != nil else { return }
        while let at = adapter?.nextSend(), at <= now.ns {
            let packet = adapter!.send(at: at)
            queue(packet, toHost: true, at: HostNanos(at), draws: &rng)
        }
    }

    /// The adapter for `impairments.model` (rebuilt if the model was changed); nil for the plain link.
    private mutating func adapterFor() -> LinkAdapter? {
        guard let m = impairments.model else { return nil }
        if adapter?.model != m {
            var r = SplitMix64(seed: adapterSeed)
            adapter = LinkAdapter(model: m, phase: r.next() % LinkModel.usbFrameNs, timerPhase: r.next() % max(m.holdNs, 1))
        }
        return adapter
    }

    /// Queues an adapter's bytes, due at `at`, plus latency ± jitter when set (the host's USB stack); FIFO.
    private mutating func queue(_ bytes: [UInt8], toHost: Bool, at: HostNanos, draws rng: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        var extra = Double(impairments.latencyNs)
        if impairments.jitterNs > 0 { extra += (rng.unit() * 2 - 1) * Double(impairments.jitterNs) }
        let due = at + UInt64(max(0, extra))
        if toHost {
            lastToHost = max(lastToHost, due)
            self.toHost.append((lastToHost, bytes))
        } else {
            lastToBoard = max(lastToBoard, due)
            toBoard.append((lastToBoard, bytes))
        }
    }
}
