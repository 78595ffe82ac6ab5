// Long or blocking test work on a thread of its own: the test awaits it without holding one of Swift
// Testing's pool threads (two on this machine), so suites with short time limits still get to run.
// SPDX-License-Identifier: Apache-2.0

import Foundation

func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
