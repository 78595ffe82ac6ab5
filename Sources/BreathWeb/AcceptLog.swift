// What the page's server says about its listening socket: accept failing for want of file descriptors
// (EMFILE, ENFILE) is said once on standard error; SwiftNIO's AcceptBackoffHandler retries it a second
// later, so the listener stays. Everything else the server logs is not for the person at the terminal.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging

/// The server's logger: silent but for the first accept that failed for want of file descriptors.
struct AcceptLog: LogHandler {
    /// Said once per process (several servers in one test process share it).
    final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var said = false
        /// How many accepts failed for want of descriptors (for tests).
        private(set) var failures = 0

        func note(_ say: () -> Void) {
            let first = lock.withLock {
                failures += 1
                defer { said = true }
                return !said
            }
            if first { say() }
        }
    }

    static let once = Once()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .error

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let error = event.metadata?["error"].map { "\($0)" } ?? event.error.map { "\($0)" } ?? ""
        guard error.contains("errno: \(EMFILE))") || error.contains("errno: \(ENFILE))") else { return }
        Self.once.note {
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            let text = "motorbreath: serve: out of file descriptors (the limit is \(limit.rlim_cur)): new connections wait, "
                + "accept is tried again every second\n"
            FileHandle.standardError.write(Data(text.utf8))
        }
    }
}
