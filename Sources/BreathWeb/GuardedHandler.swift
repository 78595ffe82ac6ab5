// Every request of `motorbreath serve` passes here: WebGuard's checks, then the page's files or the
// WebSocket. A refusal is 403 with one line of text saying why.
// SPDX-License-Identifier: Apache-2.0

import FlyingFox
import Foundation

/// Routes a request after the guard: `/` the page, its scripts and style, `/ws` the control protocol.
struct GuardedHandler: HTTPHandler {
    let rules: GuardBox
    let page: PageFiles
    let webSocket: WebSocketHTTPHandler

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let rules = rules.current
        let path = request.path
        let token = request.query.first { $0.name == "token" }?.value
        let isSocket = path == "/ws"
        let isPage = path == "/" || path == "/index.html"
        if let why = rules.refusal(host: request.headers[.host], origin: request.headers[HTTPHeader("Origin")], token: token,
                                   needsToken: isSocket || isPage || !page.isAsset(path), needsOrigin: isSocket || request.method != .GET) {
            return PageFiles.text(.forbidden, why)
        }
        guard request.method == .GET || request.method == .HEAD else { return PageFiles.text(.methodNotAllowed, "only GET is served here") }
        if isSocket { return try await webSocket.handleRequest(request) }
        return page.response(for: isPage ? "/index.html" : path)
    }
}

/// The page's files, read from the package's resources once.
struct PageFiles: Sendable {
    private let files: [String: (type: String, body: Data)]

    init() {
        let types = ["index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
                     "schedule.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"]
        var files: [String: (String, Data)] = [:]
        if let folder = Bundle.module.url(forResource: "Page", withExtension: nil) {
            for (name, type) in types {
                if let data = try? Data(contentsOf: folder.appendingPathComponent(name)) { files["/" + name] = (type, data) }
            }
        }
        self.files = files
    }

    /// The scripts and the style: the same for everyone, served without the token.
    func isAsset(_ path: String) -> Bool { path != "/index.html" && files[path] != nil }

    func response(for path: String) -> HTTPResponse {
        guard let file = files[path] else { return PageFiles.text(.notFound, "no such page: \(path)") }
        return HTTPResponse(statusCode: .ok, headers: PageFiles.headers(type: file.type), body: file.body)
    }

    static func headers(type: String) -> [HTTPHeader: String] {
        [.contentType: type, .cacheControl: "no-store", HTTPHeader("X-Content-Type-Options"): "nosniff",
         HTTPHeader("Referrer-Policy"): "no-referrer", HTTPHeader("X-Frame-Options"): "DENY",
         HTTPHeader("Content-Security-Policy"): "default-src 'self'; connect-src 'self'; frame-ancestors 'none'"]
    }

    static func text(_ status: HTTPStatusCode, _ line: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: headers(type: "text/plain; charset=utf-8"), body: Data((line + "\n").utf8))
    }
}
