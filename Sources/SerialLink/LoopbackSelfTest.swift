// Loopback self-test for a serial adapter with TX wired to RX: verified throughput and round-trip latency.
// SPDX-License-Identifier: Apache-2.0

/// What the self-test measured.
public struct LoopbackReport: Sendable, Codable {
    public var port = ""
    /// "libserialport" or "termios": which code path carried the bytes.
    public var driver = ""
    public var bytes = 0
    public var seconds = 0.0
    public var bytesPerSecond = 0.0
    /// 8N1: baud / 10 bytes per second (nil for a pseudo-terminal, which has no baud rate).
    public var theoreticalBytesPerSecond: Double?
    public var mismatchedBytes = 0
    public var missingBytes = 0
    public var rttUs: [String: Double] = [:]
    public var pings = 0
    public var lostPings = 0

    enum CodingKeys: String, CodingKey {
        case port, driver, bytes, seconds, bytesPerSecond = "bytes_per_second", theoreticalBytesPerSecond = "theoretical_bytes_per_second"
        case mismatchedBytes = "mismatched_bytes", missingBytes = "missing_bytes", rttUs = "rtt_us", pings
        case lostPings = "lost_pings"
    }
}

/// A self-test for a serial adapter with TX wired to RX: streams seeded pseudo-random bytes and checks each
/// comes back in order (verified throughput), then times one-byte round trips (latency percentiles).
///
///     let link = try PortOpener.open(path: "/dev/ttyUSB0", baud: 1_000_000)
///     let report = try LoopbackSelfTest.run(link: link, seconds: 2, baud: 1_000_000)
///     print(report.bytesPerSecond, report.mismatchedBytes, report.rttUs)
public enum LoopbackSelfTest {
    /// Streams seeded pseudo-random bytes for `seconds` (at most `window` bytes in flight) and checks each
    /// one comes back in order; then times `pings` one-byte round trips.
    public static func run(link: ByteLink, seconds: Double, baud: Int?, pings: Int = 200, window: Int = 4096,
                           clock: HostClock = SystemClock()) throws(LinkError) -> LoopbackReport {
        var r = LoopbackReport()
        var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
        func byte(_ i: Int) -> UInt8 {
            // xorshift on the index: the expected byte of position i, without storing the stream.
            var x = UInt64(i) &* 0x2545_F491_4F6C_DD1D &+ rng
            x ^= x >> 29
            return UInt8(truncatingIfNeeded: x)
        }
        _ = try link.read(maxBytes: 65_536, timeoutMs: 50)  // drop anything stale
        let start = clock.nowNs()
        let deadline = start + UInt64(seconds * 1e9)
        var sent = 0, received = 0
        while true {
            let now = clock.nowNs()
            if now < deadline && sent - received < window {
                let n = min(1024, window - (sent - received))
                try link.write((sent..<(sent + n)).map(byte), timeoutMs: 1000)
                sent += n
            }
            let chunk = try link.read(maxBytes: 65_536, timeoutMs: now < deadline ? 1 : 200)
            for b in chunk {
                if b != byte(received) { r.mismatchedBytes += 1 }
                received += 1
            }
            if now >= deadline && (chunk.isEmpty || received >= sent) { break }
        }
        let elapsedS = Double(clock.nowNs() - start) / 1e9
        r.bytes = received
        r.missingBytes = max(0, sent - received)
        r.seconds = elapsedS
        r.bytesPerSecond = Double(received) / max(elapsedS, 1e-9)
        r.theoreticalBytesPerSecond = baud.map { Double($0) / 10 }
        rng = 0
        var rtts: [Double] = []
        for k in 0..<pings {
            let probe = UInt8(truncatingIfNeeded: k | 1)
            let t0 = clock.nowNs()
            try link.write([probe], timeoutMs: 1000)
            var echoed = false
            while clock.nowNs() - t0 < 200_000_000 {
                let got = try link.read(maxBytes: 16, timeoutMs: 10)
                if got.contains(probe) {
                    echoed = true
                    break
                }
            }
            if echoed { rtts.append(Double(clock.nowNs() - t0) / 1000) } else { r.lostPings += 1 }
            r.pings = k + 1
            if r.lostPings >= 5 && rtts.isEmpty { break }  // nothing comes back: the wire is broken
        }
        let sorted = rtts.sorted()
        if !sorted.isEmpty {
            func q(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(p * Double(sorted.count - 1)))] }
            r.rttUs = ["min": sorted[0], "p50": q(0.5), "p99": q(0.99), "max": sorted[sorted.count - 1]]
        }
        return r
    }
}
