// LIMITS (board -> host, 0x87), the answer to LIMITS_REQ (0x08): the motor's drive ceiling and its
// overdrive budget. An optional addition to protocol v1, advertised by INFO capability bit 2.
// SPDX-License-Identifier: Apache-2.0

/// The motor's voltage ceiling as drive levels, and the overdrive the board allows above it.
public struct Limits: Sendable, Equatable {
    /// Highest drive level magnitude (0...32767) the motor may hold: rated voltage / supply voltage.
    public var ceilingLevel: UInt16
    /// Longest time above the ceiling in one go, and the whole overdrive budget, in ms.
    public var overdriveMs: UInt16
    /// Time at or below the ceiling that earns a spent budget back completely, in ms (the budget refills
    /// at overdriveMs / recoveryMs per ms). A spent budget holds the output at the ceiling until then.
    public var recoveryMs: UInt16
    /// Overdrive budget left when this LIMITS was made, in ms.
    public var availableMs: UInt16
    /// The motor's rated voltage (rms for an LRA), mV, for people reading it.
    public var ratedMillivolts: UInt16
    /// The drive supply voltage, mV.
    public var supplyMillivolts: UInt16

    public static let payloadSize = 12

    public init(ceilingLevel: UInt16, overdriveMs: UInt16, recoveryMs: UInt16, availableMs: UInt16,
                ratedMillivolts: UInt16, supplyMillivolts: UInt16) {
        self.ceilingLevel = ceilingLevel
        self.overdriveMs = overdriveMs
        self.recoveryMs = recoveryMs
        self.availableMs = availableMs
        self.ratedMillivolts = ratedMillivolts
        self.supplyMillivolts = supplyMillivolts
    }

    /// The ceiling for a motor rated `ratedMillivolts` on a `supplyMillivolts` supply (clamped to full drive).
    public init(ratedMillivolts: UInt16, supplyMillivolts: UInt16, overdriveMs: UInt16, recoveryMs: UInt16) {
        let level = UInt32(ratedMillivolts) * 32767 / UInt32(max(supplyMillivolts, 1))
        self.init(ceilingLevel: UInt16(min(level, 32767)), overdriveMs: overdriveMs, recoveryMs: recoveryMs,
                  availableMs: overdriveMs, ratedMillivolts: ratedMillivolts, supplyMillivolts: supplyMillivolts)
    }

    #if !hasFeature(Embedded)  // floating point: for hosts, not the boards' firmware
    /// The long-run mean level magnitude (0...32767) of a host that asks for full drive for ever: the
    /// budget above the ceiling, then the ceiling until the budget is whole, again and again (protocol.md,
    /// LIMITS). Above the ceiling by full x overdrive / (overdrive + recovery) of the headroom: a rule that
    /// bounds each run, not the average.
    public var fullDriveMeanLevel: Double {
        let cycle = Double(overdriveMs) + Double(recoveryMs)
        guard cycle > 0 else { return Double(ceilingLevel) }
        return (32767 * Double(overdriveMs) + Double(ceilingLevel) * Double(recoveryMs)) / cycle
    }
    #endif

    func encode(into p: inout FixedBytes) {
        p.appendLE16(ceilingLevel)
        p.appendLE16(overdriveMs)
        p.appendLE16(recoveryMs)
        p.appendLE16(availableMs)
        p.appendLE16(ratedMillivolts)
        p.appendLE16(supplyMillivolts)
    }

    init(decoding p: FixedBytes) {
        self.init(ceilingLevel: p.le16(at: 0), overdriveMs: p.le16(at: 2), recoveryMs: p.le16(at: 4),
                  availableMs: p.le16(at: 6), ratedMillivolts: p.le16(at: 8), supplyMillivolts: p.le16(at: 10))
    }
}
