// Deliberately broken simulated boards, for proving that the conformance suite catches a board that
// breaks one promise of protocol.md (and names that clause only). The board logic stays correct; the
// lie is told on the way out, as a flawed firmware would tell it. conform sees only the port, so a board
// whose STATUS reports a wrong level is, to it, a board that drives that level and reports it honestly.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// A promise of protocol.md that a deliberately broken simulated board breaks, to prove the conformance
/// suite catches it (and names that clause only). The board logic stays correct; the lie is told on the way
/// out, as a flawed firmware would tell it. The raw value is the name the command line takes.
///
///     let board = SimulatedBoard(spec: SimBoardSpec(), link: boardSide)
///     board.breakage = .windowEdge  // INFO claims twice the buffer the board has
public enum Breakage: String, Sendable, CaseIterable {
    /// The failsafe fires but the board never says so (no unsolicited STATUS failsafe).
    case failsafeReport = "failsafe-report"
    /// INFO claims twice the buffer the board has: the window edge is not where INFO puts it.
    case windowEdge = "window-edge"
    /// u8 frames are output at half their level (a firmware scaling 0...255 to half its PWM range).
    case halfDriveU8 = "half-drive-u8"
    /// INFO says the board cannot reverse (capability bit 0 clear), yet negative levels are output.
    case reverseUnannounced = "reverse-unannounced"
    /// A known type with the wrong payload size is refused (NAK bad_message) but not counted in rx_other_errors.
    case payloadSizeUncounted = "payload-size-uncounted"
    /// A board written to revision 1.0: it announces no revision and lacks what 1.1 added (no unsolicited
    /// STATUS when playback ends by itself, wrong payload sizes not counted).
    case revision10 = "revision-1.0"
    /// A board of revision 1.0 (as `revision-1.0`) whose failsafe leaves the motor on: its STATUS in the
    /// failsafe state shows the level it still drives.
    case revision10FailsafeOn = "revision-1.0-failsafe-on"
    /// A held CLOCK_REQ (revision 1.4) is answered with half the ticks it was held (a firmware that counts
    /// the hold from the wrong moment): the host would place the request's arrival 22 ms late at 45 ms.
    case heldHalved = "held-halved"
    /// Two SAMPLES batches go out swapped (seq 3 before seq 2): a firmware with two transmit buffers that
    /// sends them in the wrong order.
    case samplesOutOfOrder = "samples-out-of-order"
    /// Every SAMPLES' `first_tick` is one batch late (+ count × interval_ticks): a firmware that stamps a batch
    /// with the tick it was sent at instead of its first sample's.
    case samplesTicksOffByABatch = "samples-ticks-off-by-a-batch"

    /// What the broken board sends instead of `message` (nil: nothing), given what it knows (`context`).
    func rewrite(_ message: BoardMessage, _ context: BreakageContext) -> BoardMessage? {
        switch (self, message) {
        case (.failsafeReport, .status(let s)) where context.unsolicited(s) && s.state == .failsafe:
            return nil
        case (.windowEdge, .info(var i)):
            i.bufferCapacity *= 2
            return .info(i)
        case (.halfDriveU8, .status(var s)) where context.format == .u8:
            s.output /= 2
            return .status(s)
        case (.reverseUnannounced, .info(var i)):
            i.capabilities &= ~Info.capReverse
            return .info(i)
        case (.payloadSizeUncounted, .status(var s)):
            s.rxOtherErrors &-= context.payloadErrors
            return .status(s)
        case (.samplesTicksOffByABatch, .samples(var b)):
            b.firstTick &+= UInt64(b.count) &* context.sampleIntervalTicks
            return .samples(b)
        case (.heldHalved, .clockHeld(let token, let tick, let held)):
            return .clockHeld(token: token, tick: tick, heldTicks: held / 2)
        case (.revision10, .info(var i)), (.revision10FailsafeOn, .info(var i)):
            i.revision = nil
            return .info(i)
        case (.revision10, .status(var s)), (.revision10FailsafeOn, .status(var s)):
            if context.unsolicited(s) { return nil }
            s.rxOtherErrors &-= context.payloadErrors
            if self == .revision10FailsafeOn && s.state == .failsafe { s.output = 12_000 }
            return .status(s)
        default:
            return message
        }
    }

    /// Re-encodes one wire frame with `rewrite` applied (other frames pass through as they are).
    func rewrite(wire: FixedBytes, _ context: inout BreakageContext) -> [UInt8] {
        var decoder = FrameDecoder()
        var bytes: [UInt8] = []
        for i in 0..<wire.count { bytes.append(wire[i]) }
        for b in bytes {
            guard case .packet(let p)? = decoder.push(b), let m = try? BoardMessage(p) else { continue }
            if self == .samplesOutOfOrder, case .samples(let batch) = m {
                if batch.seq == 2 {  // held back, sent after the next batch
                    context.heldSamples = bytes
                    return []
                }
                defer { context.heldSamples = [] }
                return bytes + context.heldSamples
            }
            guard let replaced = rewrite(m, context) else { return [] }
            var out = FixedBytes()
            guard replaced.encode(seq: p.seq, into: &out) else { return bytes }
            return (0..<out.count).map { out[$0] }
        }
        return bytes
    }
}

/// What a broken board knows when it tells its lie: the stream's duty format, and how many host messages
/// it refused for their payload (which a board that does not count them leaves out of rx_other_errors).
struct BreakageContext {
    var format: DutyFormat?
    var payloadErrors: UInt16 = 0
    /// Sequence numbers of the host messages heard since the board last sent (a reply to seq 0 also has
    /// ack_seq 0, as an unsolicited STATUS does).
    var heardSeqs: Set<UInt8> = []
    /// The sampling interval in force (SENSOR `interval_ticks`), and a SAMPLES frame held back to be sent late.
    var sampleIntervalTicks: UInt64 = 0
    var heldSamples: [UInt8] = []
    private var decoder = FrameDecoder()

    /// Whether `s` is unsolicited rather than the answer to a message with seq 0 just heard.
    func unsolicited(_ s: Status) -> Bool { s.ackSeq == 0 && !heardSeqs.contains(0) }

    /// Follows the bytes the board receives, counting messages refused for their payload.
    mutating func heard(_ byte: UInt8) {
        guard case .packet(let p)? = decoder.push(byte) else { return }
        heardSeqs.insert(p.seq)
        do throws(WireError) { _ = try HostMessage(p) } catch {
            if case .badPayload = error { payloadErrors &+= 1 }
        }
    }
}
