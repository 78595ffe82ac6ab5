// Motors the calibration tests share.
// SPDX-License-Identifier: Apache-2.0

import Breath

enum ERMModelFixture {
    /// The fidelity table's mismatch motor: 25 % slower than the reference, 18 % start threshold.
    static let weaker = ERMModel(riseTau: 0.100, fallTau: 0.100, startThreshold: 0.18)
}
