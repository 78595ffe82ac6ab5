// The simulated board's drive log on disk, written as the board runs (so it survives SIGKILL and stays
// small in memory): the board clock's origin, one "tick level" line per settled drive change, and what
// the board knew when it stopped. Tests read it as the pin of the simulated board.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// Appends to a log file; every line is flushed at once.
public final class DriveLog: @unchecked Sendable {
    private let file: UnsafeMutablePointer<FILE>

    /// Opens `path` for writing (one-line error when it cannot).
    public init(path: String) throws(DriveLogError) {
        guard let f = fopen(path, "w") else { throw DriveLogError(path: path, reason: String(cString: strerror(errno))) }
        file = f
    }

    deinit { fclose(file) }

    /// "# clock hz H offset O boot-ns B drift-ppm D": board tick = O + (monotonic ns - B) * H / 1e9 * (1 + D/1e6).
    public func header(_ clock: SimClock) {
        write("# clock hz \(clock.clockHz) offset \(clock.offsetTicks) boot-ns \(clock.bootNs) drift-ppm \(clock.driftPPM)")
    }

    public func changes(_ changes: [DriveChange]) {
        guard !changes.isEmpty else { return }
        var text = ""
        for c in changes { text += "\(c.tick) \(c.level)\n" }
        fputs(text, file)
        fflush(file)
    }

    /// "# end tick T last-rx R failsafe-trips N": when the process stopped, the last valid message the board
    /// received, and how often its failsafe fired.
    public func end(tick: UInt64, lastRx: UInt64, failsafeTrips: UInt16) {
        write("# end tick \(tick) last-rx \(lastRx) failsafe-trips \(failsafeTrips)")
    }

    private func write(_ line: String) {
        fputs(line + "\n", file)
        fflush(file)
    }
}

/// The drive log file could not be opened for writing: its path and the system's reason, as one line.
public struct DriveLogError: Error, Sendable, CustomStringConvertible {
    /// The file, and the system's reason (strerror).
    public var path: String
    public var reason: String
    public var description: String { "cannot write the drive log \(path): \(reason)" }
}
