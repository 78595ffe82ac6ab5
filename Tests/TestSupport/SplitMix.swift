// The tests' seeded random generator: the simulations' own SplitMix64 (Breath), so every random case can
// be replayed from the seed its test prints on failure.
// SPDX-License-Identifier: Apache-2.0

@_exported import struct Breath.SplitMix64

public typealias SplitMix = SplitMix64

extension SplitMix64 {
    public init(_ seed: UInt64) { self.init(seed: seed) }
}
