// Every request of `motorbreath serve` passes here: WebGuard's checks, then the page's files or the
// WebSocket. A refusal is 403 with one line of text saying why.
// SPDX-License-Identifier: Apache-2.0

import Breath
import FlyingFox
import Foundation

/// Routes a request after the guard: `/` the page, its scripts and style, `/ws` the control protocol,
/// `/api/preview` and `/api/ahap` the pattern preview, `/api/play` an AHAP file played (docs/web.md).
struct GuardedHandler: HTTPHandler {
    let rules: GuardBox
    let page: PageFiles
    let webSocket: WebSocketHTTPHandler
    let preview: PreviewSettings
    let files: FileRequests

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let rules = rules.current
        let path = request.path
        let token = request.query.first { $0.name == "token" }?.value
        let isSocket = path == "/ws"
        let isPage = path == "/" || path == "/index.html"
        if let why = rules.refusal(host: request.headers[.host], origin: request.headers[HTTPHeader("Origin")], token: token,
                                   needsToken: isSocket || isPage || !page.isAsset(path), needsOrigin: isSocket || request.method != .GET && request.method != .HEAD) {
            return PageFiles.text(.forbidden, why)
        }
        if path == "/api/preview" || path == "/api/ahap" { return await api(request, ahap: path == "/api/ahap") }
        if path == "/api/play" { return await play(request) }
        guard request.method == .GET || request.method == .HEAD else { return PageFiles.text(.methodNotAllowed, "only GET is served here") }
        if isSocket { return try await webSocket.handleRequest(request) }
        return page.response(for: isPage ? "/index.html" : path)
    }
}

extension GuardedHandler {
    /// GET `?pattern=NAME` or POST an AHAP file: the preview's JSON, or (`ahap`) the pattern as an AHAP file.
    func api(_ request: HTTPRequest, ahap: Bool) async -> HTTPResponse {
        do {
            let haptics: HapticPattern, duration: Double, name: String
            var notices: [String] = []
            switch request.method {
            case .GET:
                guard let named = request.query.first(where: { $0.name == "pattern" })?.value else {
                    return PageFiles.text(.badRequest, "say which pattern: ?pattern=4-7-8 (or POST an AHAP file)")
                }
                (haptics, duration, name) = try PatternPreview.pattern(named: named)
            case .POST:
                if let length = request.headers[.contentLength].flatMap(Int.init), length > PatternPreview.maxUploadBytes {
                    return PageFiles.text(.payloadTooLarge, "the AHAP file is \(length) bytes; the page takes at most \(PatternPreview.maxUploadBytes) (1 MiB)")
                }
                let file = try PatternPreview.ahap(try await request.bodyData)
                (haptics, duration, name, notices) = (file.haptics, file.duration, "ahap", file.notices)
            default:
                return PageFiles.text(.methodNotAllowed, "GET with ?pattern=, or POST an AHAP file")
            }
            if ahap {
                var headers = PageFiles.headers(type: "application/json; charset=utf-8")
                headers[.contentDisposition] = "attachment; filename=\"\(name == "ahap" ? "pattern" : name).ahap\""
                return HTTPResponse(statusCode: .ok, headers: headers, body: PatternPreview.ahapText(haptics, duration: duration, name: name))
            }
            let settings = preview.current
            let body = try PatternPreview.json(haptics, duration: duration, name: name, motor: settings.motor, frameRate: settings.frameRate,
                                               notices: notices)
            return HTTPResponse(statusCode: .ok, headers: PageFiles.headers(type: "application/json; charset=utf-8"), body: body)
        } catch {
            return PageFiles.text(.badRequest, "\(error)")
        }
    }
}

extension GuardedHandler {
    /// POST an AHAP file (`?name=` the page's name for it): queued to play on the board (202), the breath
    /// stopping for it; 400 for a bad file, 409 when this server plays no files.
    func play(_ request: HTTPRequest) async -> HTTPResponse {
        guard request.method == .POST else { return PageFiles.text(.methodNotAllowed, "POST an AHAP file to play it") }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > PatternPreview.maxUploadBytes {
            return PageFiles.text(.payloadTooLarge, "the AHAP file is \(length) bytes; the page takes at most \(PatternPreview.maxUploadBytes) (1 MiB)")
        }
        do {
            let file = try PatternPreview.ahap(try await request.bodyData, name: request.query.first { $0.name == "name" }?.value)
            guard file.duration > 0 else { return PageFiles.text(.badRequest, "the AHAP file has no events to play") }
            let name = FileRequests.displayName(request.query.first { $0.name == "name" }?.value)
            guard files.put(FileRequests.File(name: name, haptics: file.haptics, duration: file.duration)) else {
                return PageFiles.text(.conflict, "this server plays no files")
            }
            return PageFiles.text(.accepted, "playing \(name) (\(String(format: "%.1f", file.duration)) s), then the breath again")
        } catch {
            return PageFiles.text(.badRequest, "\(error)")
        }
    }
}

/// The motor and frame rate previews are rendered for (the board's, once it is prepared).
final class PreviewSettings: @unchecked Sendable {
    private let lock = NSLock()
    private var settings: (motor: MotorProfile, frameRate: Int) = (.referenceERM, 250)
    func set(motor: MotorProfile, frameRate: Int) { lock.withLock { settings = (motor, frameRate) } }
    var current: (motor: MotorProfile, frameRate: Int) { lock.withLock { settings } }
}

/// The page's files, read from the package's resources once.
struct PageFiles: Sendable {
    private let files: [String: (type: String, body: Data)]

    init() {
        let types = ["index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
                     "schedule.js": "text/javascript; charset=utf-8", "link.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
                     "plot.js": "text/javascript; charset=utf-8", "palette.js": "text/javascript; charset=utf-8"]
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

    static func headers(type: String) -> HTTPHeaders {
        var h = HTTPHeaders()
        h[.contentType] = type
        h[.cacheControl] = "no-store"
        h[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        h[HTTPHeader("Referrer-Policy")] = "no-referrer"
        h[HTTPHeader("X-Frame-Options")] = "DENY"
        h[HTTPHeader("Content-Security-Policy")] = "default-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        return h
    }

    static func text(_ status: HTTPStatusCode, _ line: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: headers(type: "text/plain; charset=utf-8"), body: Data((line + "\n").utf8))
    }
}
