// Asks whatever is on a port whether it is a motorbreath board (HELLO -> INFO), without playing anything.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

/// Asks whatever is on a port whether it is a motorbreath board (HELLO, answered by INFO) without playing
/// anything, and picks the one port among the listed ones whose board answers (`--port auto`).
///
///     switch BoardProbe.probe(path: "/dev/ttyACM0") {
///     case .board(let info): print("found", info.displayName)
///     case .silent: print("no motorbreath board answers there")
///     case .unavailable(let error): print(error)
///     }
///     let port = try BoardProbe.autoSelect().get()  // or a PortChoiceError, one line
public enum BoardProbe {
    /// What a port answered: a board with its INFO, nothing in time (silent), or the port could not be opened.
    public enum Answer: Sendable {
        case board(Info)
        case silent
        case unavailable(LinkError)
    }

    /// Opens `path`, sends HELLO, waits up to `timeoutMs` for INFO, closes.
    public static func probe(path: String, settings: LinkSettings = LinkSettings(), timeoutMs: Int = 1500) -> Answer {
        let link: ByteLink
        do { link = try PortOpener.open(path: path, settings: settings) } catch { return .unavailable(error) }
        defer { link.close() }
        let channel = BoardChannel(link: link)
        do { return .board(try channel.hello(timeoutMs: timeoutMs)) } catch { return .silent }
    }

    /// The one port among the listed ones whose board answers, or a one-line reason.
    public static func autoSelect(settings: LinkSettings = LinkSettings()) -> Result<String, PortChoiceError> {
        let candidates: [PortInfo]
        do { candidates = try PortDiscovery.list() } catch { return .failure(PortChoiceError(reason: error.description)) }
        let answering = candidates.filter { if case .board = probe(path: $0.path, settings: settings) { return true } else { return false } }
        if answering.count == 1 { return .success(answering[0].path) }
        let names = candidates.map(\.path).joined(separator: ", ")
        if answering.isEmpty {
            return .failure(PortChoiceError(reason: candidates.isEmpty
                ? "no serial ports found (plug in the board, or use --simulate)"
                : "no motorbreath board answered on \(names)"))
        }
        return .failure(PortChoiceError(reason: "several boards answer (\(answering.map(\.path).joined(separator: ", "))): pick one with --port"))
    }
}

/// Why `--port auto` could not pick a port: no ports, no board answering, or several; one line for the user.
public struct PortChoiceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, without the "--port auto: " prefix ``description`` adds.
    public var reason: String
    public var description: String { "--port auto: \(reason)" }
}
