// Every request of `motorbreath serve` passes here: WebGuard's checks, then the page's files or the API;
// the WebSocket's handshake is checked by the same rules. A refusal is 403 with one line of text saying why.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore

/// Routes a request after the guard: `/` the page, its scripts and style, `/api/preview` and `/api/ahap` the
/// pattern preview, `/api/play` an AHAP file played (docs/web.md). The WebSocket at `/ws` is the upgrade's
/// (`refusal(upgrade:rules:)` guards its handshake).
struct GuardedHandler: HTTPResponder {
    typealias Context = BasicRequestContext
    let rules: GuardBox
    let page: PageFiles
    let preview: PreviewSettings
    let files: FileRequests

    func respond(to request: Request, context: Context) async throws -> Response {
        let rules = rules.current
        let path = request.uri.path
        let token = request.uri.queryParameters["token"].map(String.init)
        let isSocket = path == "/ws"
        let isPage = path == "/" || path == "/index.html"
        if let why = rules.refusal(host: request.head.authority, origin: request.headers[.origin], token: token,
                                   needsToken: isSocket || isPage || !page.isAsset(path), needsOrigin: isSocket || request.method != .get && request.method != .head) {
            return PageFiles.text(.forbidden, why)
        }
        if path == "/api/preview" || path == "/api/ahap" { return await api(request, ahap: path == "/api/ahap") }
        if path == "/api/play" { return await play(request) }
        guard request.method == .get || request.method == .head else { return PageFiles.text(.methodNotAllowed, "only GET is served here") }
        if isSocket { return PageFiles.text(.badRequest, "/ws is a WebSocket: open it with Upgrade: websocket") }
        return page.response(for: isPage ? "/index.html" : path)
    }

    /// Why a WebSocket handshake is refused (403 with the guard's line, 404 off `/ws`), nil when it may go on.
    static func refusal(upgrade head: HTTPRequest, rules: WebGuard) -> PageRefusal? {
        let uri = URI(head.path ?? "/")
        guard uri.path == "/ws" else { return PageRefusal(status: 404, line: "no such page: \(uri.path)") }
        let why = rules.refusal(host: head.authority, origin: head.headerFields[.origin],
                                token: uri.queryParameters["token"].map(String.init), needsToken: true, needsOrigin: true)
        return why.map { PageRefusal(status: 403, line: $0) }
    }

    /// The request's body, at most `PatternPreview.maxUploadBytes` whatever its encoding (Content-Length or
    /// chunked): nil when it is longer.
    static func body(_ request: Request) async throws -> Data? {
        do {
            let buffer = try await request.body.collect(upTo: PatternPreview.maxUploadBytes)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            return nil
        }
    }

    static func tooLarge(_ request: Request) -> Response {
        let length = request.headers[.contentLength].flatMap(Int.init)
        return PageFiles.text(.contentTooLarge, length.map(ConnectionGuard.tooLarge)
                              ?? "the AHAP file is over \(PatternPreview.maxUploadBytes) bytes; the page takes at most \(PatternPreview.maxUploadBytes) (1 MiB)")
    }
}

extension GuardedHandler {
    /// GET `?pattern=NAME` or POST a pattern file: the preview's JSON, or (`ahap`) the pattern as an AHAP file
    /// (or another export format with `?format=`).
    func api(_ request: Request, ahap: Bool) async -> Response {
        do {
            let haptics: HapticPattern, duration: Double, name: String
            var notices: [String] = []
            switch request.method {
            case .get:
                guard let named = request.uri.queryParameters["pattern"].map(String.init) else {
                    return PageFiles.text(.badRequest, "say which pattern: ?pattern=4-7-8 (or POST an AHAP file)")
                }
                (haptics, duration, name) = try PatternPreview.pattern(named: named)
            case .post:
                guard let data = try await Self.body(request) else { return Self.tooLarge(request) }
                let file = try PatternPreview.ahap(data)
                (haptics, duration, name, notices) = (file.haptics, file.duration, "ahap", file.notices)
            default:
                return PageFiles.text(.methodNotAllowed, "GET with ?pattern=, or POST an AHAP file")
            }
            if ahap {
                // `?format=haptic`, `hjif`, `android` or `android-envelope` writes that format instead (PatternExportFormat).
                let asked = request.uri.queryParameters["format"].map(String.init) ?? "ahap"
                guard let format = PatternExportFormat(rawValue: asked) else {
                    return PageFiles.text(.badRequest, "format: expected ahap, haptic, hjif, android or android-envelope")
                }
                var headers = PageFiles.headers(type: "application/json; charset=utf-8")
                headers[.contentDisposition] = "attachment; filename=\"\(name == "ahap" ? "pattern" : name).\(format.fileExtension)\""
                return PageFiles.response(.ok, headers, PatternPreview.fileText(haptics, duration: duration, name: name, format: format))
            }
            let settings = preview.current
            let body = try PatternPreview.json(haptics, duration: duration, name: name, motor: settings.motor, frameRate: settings.frameRate,
                                               notices: notices)
            return PageFiles.response(.ok, PageFiles.headers(type: "application/json; charset=utf-8"), body)
        } catch {
            return PageFiles.text(.badRequest, "\(error)")
        }
    }
}

extension GuardedHandler {
    /// POST an AHAP file (`?name=` the page's name for it): queued to play on the board (202), the breath
    /// stopping for it; 400 for a bad file, 409 when this server plays no files.
    func play(_ request: Request) async -> Response {
        guard request.method == .post else { return PageFiles.text(.methodNotAllowed, "POST an AHAP file to play it") }
        do {
            guard let data = try await Self.body(request) else { return Self.tooLarge(request) }
            let named = request.uri.queryParameters["name"].map(String.init)
            let file = try PatternPreview.ahap(data, name: named)
            guard file.duration > 0 else { return PageFiles.text(.badRequest, "the AHAP file has no events to play") }
            let name = FileRequests.displayName(named)
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
                     "schedule.js": "text/javascript; charset=utf-8", "link.js": "text/javascript; charset=utf-8",
                     "files.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
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

    func response(for path: String) -> Response {
        guard let file = files[path] else { return PageFiles.text(.notFound, "no such page: \(path)") }
        return PageFiles.response(.ok, PageFiles.headers(type: file.type), file.body)
    }

    static func headers(type: String) -> HTTPFields {
        var h = HTTPFields()
        h[.contentType] = type
        h[.cacheControl] = "no-store"
        h[.xContentTypeOptions] = "nosniff"
        h[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        h[HTTPField.Name("X-Frame-Options")!] = "DENY"
        h[.contentSecurityPolicy] = "default-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        return h
    }

    static func response(_ status: HTTPResponse.Status, _ headers: HTTPFields, _ body: Data) -> Response {
        var headers = headers
        headers[.contentLength] = "\(body.count)"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func text(_ status: HTTPResponse.Status, _ line: String) -> Response {
        response(status, headers(type: "text/plain; charset=utf-8"), Data((line + "\n").utf8))
    }
}
