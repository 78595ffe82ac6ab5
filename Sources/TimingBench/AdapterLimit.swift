// The best start error on a USB-serial adapter link (ClockLimit extended to asymmetric links): each
// direction's own delay law from the adapter's mechanics, and the same exchanges judged two ways.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard

/// The start error ClockLimit's estimator reaches on an asymmetric link, where each direction has its own
/// delay law, e.g. a USB-serial adapter (`LinkModel`): host to board waits for the next 1 ms USB frame
/// and then the request's UART time; board to host takes the reply's UART time and then the adapter's hold
/// (FTDI's latency timer, or the next USB frame).
///
/// With round trips only, a constant asymmetry is not observable: an estimator that assumes symmetric trips
/// is off by half the difference of the two directions' minimum delays, however many exchanges it makes;
/// one that knows each direction's law (the model is documented) removes it. Both are computed here from
/// the same exchanges, so docs can say where motorbreath stands between them.
///
///     let e = AdapterLimit.errorsUs(model: LinkModel.named("ftdi")!, estimator: .knowsEachDirection,
///                                   seconds: 0.5, spacingMs: 10, trials: 2000, seed: 1)
///     let p90 = ClockLimit.quantile(e, 0.9)  // µs
public enum AdapterLimit {
    /// One direction's delay: uniform over center ± half (ns), as ClockLimit's latency ± jitter.
    public struct OneWay: Sendable, Equatable {
        public var centerNs: Double
        public var halfNs: Double
        public init(centerNs: Double, halfNs: Double) {
            self.centerNs = centerNs
            self.halfNs = halfNs
        }
        /// From a minimum and the width of the uniform excess above it.
        public init(minNs: Double, widthNs: Double) {
            self.init(centerNs: minNs + widthNs / 2, halfNs: widthNs / 2)
        }
        public var minNs: Double { centerNs - halfNs }
    }

    /// What the estimator knows of the link.
    public enum Estimator: Sendable {
        /// Each direction's minimum delay (from the model): the fastest forward and backward trips bound
        /// the offset from both sides, and their middle is off by half the difference of their excesses.
        case knowsEachDirection
        /// Only that trips are symmetric (what a round-trip estimator assumes): the middle of the fastest
        /// forward and backward trips, off also by half the difference of the directions' minima.
        case assumesSymmetry
    }

    /// The wire sizes of CLOCK_REQ (12 bytes) and CLOCK (20 bytes), COBS and delimiter included
    /// (protocol.md's golden examples): the UART time each direction's minimum includes.
    public static let requestBytes = 12, replyBytes = 20

    /// Offset errors (µs, one per trial) of the fastest-trip estimator on a link whose directions have
    /// their own laws, each delay independent of every other. ClockLimit.errorsUs is this with latency ±
    /// jitter both ways (its published figures are held to golden values by a test).
    public static func errorsUs(forward: OneWay, backward: OneWay, estimator: Estimator, seconds: Double,
                                spacingMs: Double, trials: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        func delay(_ law: OneWay) -> Double { law.centerNs + (rng.unit() * 2 - 1) * law.halfNs }
        let (minForward, minBackward) = estimator == .knowsEachDirection ? (forward.minNs, backward.minNs) : (0, 0)
        var errors: [Double] = []
        errors.reserveCapacity(trials)
        let end = seconds * 1e9, spacing = spacingMs * 1e6
        for _ in 0..<trials {
            var lastAtBoard = -Double.infinity, lastAtHost = -Double.infinity
            var fastestForward = Double.infinity, fastestBackward = Double.infinity
            var sent = 0.0
            while sent < end {
                let atBoard = max(sent + delay(forward), lastAtBoard)
                lastAtBoard = atBoard
                let atHost = max(atBoard + delay(backward), lastAtHost)
                lastAtHost = atHost
                if atHost <= end {
                    fastestForward = min(fastestForward, atBoard - sent - minForward)
                    fastestBackward = min(fastestBackward, atHost - atBoard - minBackward)
                }
                sent += spacing
            }
            errors.append(abs(fastestForward - fastestBackward) / 2 / 1000)
        }
        return errors
    }

    /// One adapter link's mechanics, restated from docs/link-models.md ("Link models") rather than taken
    /// from the simulation (the bound must not share a mistake with what it judges): a request written at
    /// `sent` goes out at the first USB frame after it (frames every 1 ms from `framePhase`), then takes its
    /// UART time; the board answers at once; the reply takes its UART time into the chip, which sends it at
    /// the first tick of its hold after it is in (FTDI: its latency timer, periodic from `holdPhase` while
    /// nothing fills a packet; the others: the USB frame grid). Replies never fill a packet.
    public struct Mechanics: Sendable {
        public var requestNs: Double, replyNs: Double, holdNs: Double, holdIsFrameGrid: Bool
        public static let frameNs = 1e6

        public init(_ model: LinkModel) {
            let byteNs = model.hasUART ? 10e9 / Double(model.baud) : 0
            requestNs = Double(AdapterLimit.requestBytes) * byteNs
            replyNs = Double(AdapterLimit.replyBytes) * byteNs
            holdIsFrameGrid = !model.holdRestartsOnSend
            holdNs = holdIsFrameGrid ? Self.frameNs : Double(model.holdNs)
        }

        /// The first tick of a grid (`phase + k * period`) strictly after `t` (`t` within a millionth of a
        /// ns of a tick counts as on it: a tick computed in floating point must not come out just before).
        static func tick(after t: Double, phase: Double, period: Double) -> Double {
            phase + ((t - phase) / period + 1e-12).rounded(.down) * period + period
        }

        /// When a request sent at `sent` is at the board, and when its reply is back at the host.
        func exchange(sent: Double, framePhase: Double, holdPhase: Double) -> (atBoard: Double, atHost: Double) {
            let atBoard = Self.tick(after: sent, phase: framePhase, period: Self.frameNs) + requestNs
            return (atBoard, atBoard + backward(atBoard, phase: holdIsFrameGrid ? framePhase : holdPhase))
        }

        /// The reply's delay when the request is in at `atBoard`: sent at the first tick of the hold strictly
        /// after its first byte is in (what is queued at a tick waits for the next, as a reply made the
        /// instant a frame's data came in) and not before its last byte is in (a packet part-filled at a
        /// tick goes, the rest waits for the next).
        func backward(_ atBoard: Double, phase: Double) -> Double {
            let firstIn = atBoard + replyNs / Double(AdapterLimit.replyBytes), lastIn = atBoard + replyNs
            var at = Self.tick(after: firstIn, phase: phase, period: holdNs)
            while at < lastIn { at += holdNs }
            return at - atBoard
        }

        /// Each direction's minimum delay over all grid phases, what an estimator knowing the model
        /// subtracts: host to board, the request's UART time (a write just before a frame); board to host,
        /// the reply's UART time when the hold is its own timer (FTDI), but on the frame grid the reply is
        /// locked to the frame that brought the request in, so its delay is always the same: the wait from
        /// request + reply UART time to the next frame, less the request's UART time.
        public var minimaNs: (forward: Double, backward: Double) {
            guard holdIsFrameGrid else { return (requestNs, replyNs) }
            return (requestNs, backward(requestNs, phase: 0))
        }
    }

    /// Offset errors (µs, one per trial) of the fastest-trip estimator (ClockLimit's) on an adapter link:
    /// a CLOCK request every `spacingMs` for `seconds`, each written at a random instant within 1 ms after
    /// its slot (the estimator's own choice: at a fixed 10 ms period every request would meet the USB frame
    /// at the same phase, and the fastest forward trip would never improve), nothing else on the wire, the
    /// board answering at once, its rate known; only exchanges whose reply is back by the end count. The
    /// USB frame grid's and FTDI timer's phases are drawn per trial, as the simulation draws them per seed.
    ///
    /// The estimator uses the fastest trip each way only. It does not use the slowest trips, nor that on
    /// this model the host sees each reply on the adapter's grid (a model-aware estimator could learn the
    /// grids from those and do better still): the bound is ClockLimit's estimator, on this link.
    ///
    /// `rateKnown: false`: the same exchanges, the board's rate unknown too (RateUnknownLimit), the
    /// estimate judged at the end of the time; only with `.knowsEachDirection`.
    public static func errorsUs(model: LinkModel, estimator: Estimator, seconds: Double, spacingMs: Double,
                                trials: Int, seed: UInt64, rateKnown: Bool = true) -> [Double] {
        var rng = SplitMix64(seed: seed)
        let m = Mechanics(model)
        let (minForward, minBackward) = estimator == .knowsEachDirection ? m.minimaNs : (0, 0)
        var errors: [Double] = []
        errors.reserveCapacity(trials)
        let end = seconds * 1e9, spacing = spacingMs * 1e6
        for _ in 0..<trials {
            let framePhase = rng.unit() * Mechanics.frameNs, holdPhase = rng.unit() * m.holdNs
            var fastestForward = Double.infinity, fastestBackward = Double.infinity
            var below: [(x: Double, y: Double)] = [], above: [(x: Double, y: Double)] = []
            var slot = 0.0
            while slot < end {
                let sent = slot + rng.unit() * Mechanics.frameNs
                let (atBoard, atHost) = m.exchange(sent: sent, framePhase: framePhase, holdPhase: holdPhase)
                if atHost <= end {
                    fastestForward = min(fastestForward, atBoard - sent - minForward)
                    fastestBackward = min(fastestBackward, atHost - atBoard - minBackward)
                    if !rateKnown {
                        // The true offset is zero: the board's tick is atBoard; earliest arrival, latest leave.
                        below.append((sent + minForward, atBoard - sent - minForward))
                        above.append((atHost - minBackward, -(atHost - atBoard - minBackward)))
                    }
                }
                slot += spacing
            }
            errors.append(rateKnown ? abs(fastestForward - fastestBackward) / 2 / 1000
                                    : RateUnknownLimit.errorUs(below: below, above: above, end: end))
        }
        return errors
    }
}
