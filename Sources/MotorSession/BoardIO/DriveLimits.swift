// The board's drive ceiling on the host: LIMITS asked at prepare (only of a board that advertises it
// with INFO capability bit 2), and turned into the renderer's DriveCeiling.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorWire

extension BoardChannel {
    /// Asks for LIMITS (sent again if the request or the answer is lost).
    public func limits(timeoutMs: Int) throws(SessionError) -> Limits {
        try exchange(.limitsRequest, "LIMITS", attempts: 5, timeoutMs: timeoutMs) { m, seq throws(SessionError) -> Limits? in
            switch m {
            case .limits(let l): return l
            case .nak(let n) where n.refSeq == seq: throw .refused(n)
            default: return nil
            }
        }
    }
}

extension Limits {
    /// The ceiling as the renderer takes it: fraction of full drive and seconds.
    public var driveCeiling: DriveCeiling {
        DriveCeiling(level: Double(ceilingLevel) / 32767, overdriveSeconds: Double(overdriveMs) / 1000,
                     recoverySeconds: Double(recoveryMs) / 1000, availableSeconds: Double(availableMs) / 1000)
    }
}
