// What the page's server says about its listening socket: accept failing for want of file descriptors
// (EMFILE, ENFILE) is said once on standard error. SwiftNIO's AcceptBackoffHandler, next in the listening
// socket's pipeline, tries accept again a second later and keeps the error from closing the listener.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOCore

/// Put first on the listening socket's pipeline: says the first accept that failed for want of descriptors,
/// counts them all, and passes every error on (to the backoff).
final class AcceptLog: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    /// Said once per process (several servers in one test process share it).
    final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var said = false
        private var count = 0

        /// How many accepts failed for want of descriptors.
        var failures: Int { lock.withLock { count } }

        func note(_ say: () -> Void) {
            let first = lock.withLock {
                count += 1
                defer { said = true }
                return !said
            }
            if first { say() }
        }
    }

    static let once = Once()

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            Self.once.note {
                var limit = rlimit()
                getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
                let text = "motorbreath: serve: out of file descriptors (the limit is \(limit.rlim_cur)): new connections wait, "
                    + "accept is tried again every second\n"
                FileHandle.standardError.write(Data(text.utf8))
            }
        }
        context.fireErrorCaught(error)
    }
}
