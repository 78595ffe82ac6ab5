// The simulated person's and motor's random source, and the normal curve their answers follow.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation

/// SplitMix64 started one step in, as the simulated people always were: a seed gives the same person.
func seededRandom(_ seed: UInt64) -> SplitMix64 { SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }

/// The standard normal cumulative distribution.
func normalCDF(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
