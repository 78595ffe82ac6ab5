// The render resolution for the duty format a board was configured with: one mapping, for every player.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorWire

extension DutyResolution {
    /// Frames rendered in the format CONFIGURE chose (u8 0...255, u16 0...65535, i16 signed).
    public init(_ format: DutyFormat) {
        switch format {
        case .u8: self = .u8
        case .u16: self = .u16
        case .i16: self = .i16
        }
    }
}
