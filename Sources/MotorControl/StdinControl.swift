// JSON lines on standard input (`--control -`), read on a thread of their own with the protocol's line
// limit; the answers go wherever the caller says (standard output's event queue).
// SPDX-License-Identifier: Apache-2.0

import Glibc
import HostPlatform

/// Reads JSON lines from standard input on a thread of its own until end of file (at most
/// `LineReader.limit` bytes a line).
public final class StdinControl: @unchecked Sendable {
    public init(hub: ControlHub, answer: @escaping (String) -> Void) {
        pthread_detach(startThread {
            var reader = LineReader()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = Glibc.read(0, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                for item in reader.feed(buffer[0..<n]) {
                    switch item {
                    case .line(let line): if let error = hub.handle(line: line) { answer(error) }
                    case .tooLong: answer(ErrorEvent(message: LineReader.tooLongMessage).line)
                    }
                }
            }
        })
    }
}

