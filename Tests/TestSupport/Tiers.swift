// The test tiers, as tags on the suites: .ci/test runs each tier its own way, and `.ci/tiers` (which reads
// these tags from the sources) fails on a suite without one.
// SPDX-License-Identifier: Apache-2.0

import Testing

extension Tag {
    /// CPU only (rendering, the codec, board logic, virtual-time sessions, docs against code): run in parallel.
    @Tag public static var fast: Self
    /// Real processes, ptys, terminals, sockets, a browser or the wall clock: one test at a time.
    @Tag public static var realTime: Self
    /// A firmware in an emulator (QEMU, simavr): one test at a time, in a stream beside the real-time one.
    @Tag public static var emulated: Self
}
