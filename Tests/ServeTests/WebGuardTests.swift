// WebGuard's rules as a table: the Host header (DNS rebinding), the Origin (cross-site WebSocket
// hijacking), the token beyond 127.0.0.1. CPU only (fast tier).
// SPDX-License-Identifier: Apache-2.0

import BreathWeb
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct WebGuardTests {
    let open = WebGuard(token: nil, port: 8780)
    let locked = WebGuard(token: "0123456789abcdef0123456789abcdef", port: 8780)

    @Test(arguments: [
        ("127.0.0.1:8780", true), ("localhost:8780", true), ("LOCALHOST:8780", true), ("[::1]:8780", true),
        ("192.168.1.20:8780", true), ("127.0.0.1:8781", false), ("127.0.0.1", false), ("evil.example:8780", false),
        ("127.0.0.1.nip.io:8780", false), ("[::1]", false), ("[::1]x:8780", false), ("", false), ("1.2.3:8780", false),
        ("256.1.1.1:8780", false), ("127.0.0.1:8780:1", false),
    ])
    func hosts(host: String, allowed: Bool) {
        #expect(open.allows(host: host) == allowed, "\(host)")
    }

    @Test func originMustBeThePageItself() {
        let h = "127.0.0.1:8780"
        #expect(open.refusal(host: h, origin: "http://127.0.0.1:8780", token: nil, needsToken: true, needsOrigin: true) == nil)
        #expect(open.refusal(host: h, origin: "http://evil.example", token: nil, needsToken: true, needsOrigin: true) != nil)
        #expect(open.refusal(host: h, origin: "http://127.0.0.1:9999", token: nil, needsToken: true, needsOrigin: true) != nil)
        #expect(open.refusal(host: h, origin: "null", token: nil, needsToken: true, needsOrigin: true) != nil)
        #expect(open.refusal(host: "evil.example:8780", origin: "http://evil.example:8780", token: nil, needsToken: true, needsOrigin: true) != nil)
        #expect(open.refusal(host: nil, origin: nil, token: nil, needsToken: false, needsOrigin: false) != nil)
        // A request with no Origin (curl, a script, a rebinding page's plain GET) is held to the Host rule too.
        for (needsToken, needsOrigin) in [(false, false), (true, true), (false, true)] {
            #expect(open.refusal(host: "evil.example:8780", origin: nil, token: nil, needsToken: needsToken, needsOrigin: needsOrigin) != nil)
            #expect(locked.refusal(host: "evil.example:8780", origin: nil, token: locked.token, needsToken: needsToken, needsOrigin: needsOrigin) != nil)
        }
    }

    @Test func tokenBeyondLoopback() {
        let h = "192.168.1.20:8780"
        #expect(locked.refusal(host: h, origin: nil, token: nil, needsToken: true, needsOrigin: false) != nil)
        #expect(locked.refusal(host: h, origin: nil, token: "wrong", needsToken: true, needsOrigin: false) != nil)
        #expect(locked.refusal(host: h, origin: nil, token: locked.token, needsToken: true, needsOrigin: false) == nil)
        #expect(locked.refusal(host: h, origin: nil, token: nil, needsToken: false, needsOrigin: false) == nil)  // app.js, style.css
        let a = WebGuard.newToken(), b = WebGuard.newToken()
        #expect(a.count == 32 && a.allSatisfy(\.isHexDigit) && a != b)
    }
}
