// motorbreath's own version: what `motorbreath --version` prints and what the simulated board reports as
// its firmware version in INFO (the host's own board). Numbers only here: this file is also compiled into
// the Embedded Swift firmware, where text needs a heap (`MotorbreathVersion.text` is in MotorSession).
// SPDX-License-Identifier: Apache-2.0

/// The version of this motorbreath build (semantic versioning: major.minor.patch).
public enum MotorbreathVersion {
    public static let major: UInt8 = 0
    public static let minor: UInt8 = 1
    public static let patch: UInt8 = 0
}
