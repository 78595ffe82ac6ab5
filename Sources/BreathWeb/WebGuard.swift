// Who may use `motorbreath serve`: the Host header (DNS rebinding), the Origin header (cross-site
// WebSocket hijacking) and, when it listens beyond this machine, the random token in the URL.
// Pure checks, no sockets: the server asks, tests ask the same questions.
// SPDX-License-Identifier: Apache-2.0

/// The rules a request must pass before it reaches the page, the API or the WebSocket.
public struct WebGuard: Sendable {
    /// The token every page, API and WebSocket request must carry as `?token=` (nil: on loopback, none).
    public let token: String?
    /// The port the server listens on (the Host header must name it).
    public let port: UInt16

    public init(token: String?, port: UInt16) {
        self.token = token
        self.port = port
    }

    /// A random 128-bit token, as 32 hex digits.
    public static func newToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let s = String(UInt32.random(in: 0...UInt32.max, using: &g), radix: 16)
            return String(repeating: "0", count: 8 - s.count) + s
        }.joined()
    }

    /// Why a request is refused (nil: it may go on). `needsToken`: the page, the API and the WebSocket
    /// (the page's scripts and styles are the same for everyone and carry no token). `needsOrigin`:
    /// the WebSocket and the API's POSTs, where a browser names the page that opened them.
    public func refusal(host: String?, origin: String?, token given: String?, needsToken: Bool, needsOrigin: Bool) -> String? {
        guard let host, allows(host: host) else {
            return "the Host header must name this server by address (127.0.0.1:\(port), localhost:\(port) or the address it listens on)"
        }
        if needsToken, let token, given != token { return "a token is needed: open the URL motorbreath serve printed" }
        if needsOrigin, let origin, origin.lowercased() != "http://" + host.lowercased() {
            return "a page from another site (\(origin)) may not steer the motor"
        }
        return nil
    }

    /// A Host header naming this server: an IP address (v4, or v6 in brackets) or localhost, with our port
    /// (port 80 may be left out). A DNS name is refused: DNS rebinding points one at 127.0.0.1.
    public func allows(host: String) -> Bool {
        let name: Substring
        let portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            name = host[host.index(after: host.startIndex)..<close]
            let rest = host[host.index(after: close)...]
            portText = rest.isEmpty ? nil : (rest.hasPrefix(":") ? rest.dropFirst() : nil)
            if !rest.isEmpty && portText == nil { return false }
            guard !name.isEmpty, name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        } else {
            let parts = host.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return false }
            name = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard name.lowercased() == "localhost" || WebGuard.isIPv4(name) else { return false }
        }
        if let portText { return UInt16(portText) == port }
        return port == 80
    }

    static func isIPv4(_ s: Substring) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 }
    }
}
