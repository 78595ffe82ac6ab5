// An AHAP file the page asked to play on the board: one slot (the latest request wins), filled by the
// server's `POST /api/play` and emptied by serve's session loop, which stops what plays so the file can.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation

/// Files waiting to be played, one at most: a second request replaces the first.
///
///     server.files.onRequest = { session.stop() }   // the playing breath ends, motor off
///     if let file = server.files.take() { play(file.haptics, for: file.duration) }
public final class FileRequests: @unchecked Sendable {
    /// One AHAP file, as imported, with the name the page gave it.
    public struct File: Sendable {
        public let name: String
        public let haptics: HapticPattern
        public let duration: Double
    }

    private let lock = NSLock()
    private var pending: File?
    private var handler: (@Sendable () -> Void)?

    public init() {}

    /// Called after a file is queued (on the server's task): serve stops what plays. Without it the server
    /// plays no files and refuses `POST /api/play`.
    public var onRequest: (@Sendable () -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    /// Queues `file` (replacing one not yet taken) and calls `onRequest`; false when nothing plays files.
    @discardableResult
    public func put(_ file: File) -> Bool {
        guard let handler = onRequest else { return false }
        lock.withLock { pending = file }
        handler()
        return true
    }

    /// The file waiting, now taken; nil when none waits.
    public func take() -> File? {
        lock.withLock {
            defer { pending = nil }
            return pending
        }
    }

    /// A name fit for an event line and a page: the file name's last part, printable, at most 80 characters.
    public static func displayName(_ raw: String?) -> String {
        let last = (raw ?? "").split(separator: "/").last.map(String.init) ?? ""
        let kept = last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !($0.properties.generalCategory == .format) }
        let name = String(String.UnicodeScalarView(kept.prefix(80)))
        return name.isEmpty ? "pattern.ahap" : name
    }
}
