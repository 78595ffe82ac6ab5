// The motor files of hardware/motors/, read from the repository, and the truths the tests judge against.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorPhysics

enum MotorFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("hardware/motors").path

    static let names = ["erm-coin-10mm", "erm-pmd-305-000", "erm-slow-coin", "erm-fast-8mm",
                        "lra-coin-10mm-175", "lra-150", "lra-235"]

    static func load(_ name: String) throws -> MotorFile {
        try MotorFile.load(path: directory + "/" + name + ".json")
    }
}
