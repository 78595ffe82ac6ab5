// The version as text, for the host (MotorWire's numbers are compiled into the firmware too, without text).
// SPDX-License-Identifier: Apache-2.0

import MotorWire

extension MotorbreathVersion {
    /// "major.minor.patch", e.g. "0.1.0".
    public static var text: String { "\(major).\(minor).\(patch)" }
}
