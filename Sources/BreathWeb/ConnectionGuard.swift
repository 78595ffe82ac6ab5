// The first handler on every connection of `motorbreath serve`, before any HTTP parsing: the connection cap
// (503), the request head's size (431) and time (408), the body's size whatever its encoding (413) and time
// (408), idle connections closed. It reads the raw bytes, so no parser ever holds more than these bounds.
// SPDX-License-Identifier: Apache-2.0

import NIOCore

/// A refusal asked for from above (the WebSocket handshake's guard): answered here in plain HTTP, the
/// connection then closed, and whatever the layers above still write dropped.
struct PageRefusal: Sendable {
    var status: Int
    var line: String
}

/// Holds one connection to ``ServerLimits``. Between requests it finds each request's head (up to its blank
/// line) and frames the body that follows by its Content-Length; a chunked body is counted raw to the body's
/// limit (with room for the chunks' own lines) and is the connection's last request. A WebSocket, once its
/// head has passed, is let through: its frames have their own limits (HubSocket).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    enum State {
        /// Reading a head: its bytes so far (empty: none of it yet) and when its first byte came.
        case head(started: NIODeadline?)
        /// A body of this many bytes still to come.
        case body(remaining: Int)
        /// A chunked body: raw bytes after its head, counted to the body's limit.
        case chunked(bytes: Int)
        /// A WebSocket: not ours to frame.
        case passthrough
        /// Answered and closing: nothing more is read or written.
        case refused(at: NIODeadline)
    }

    private let limits: ServerLimits
    private let open: OpenConnections
    private var state: State = .head(started: nil)
    private var head: [UInt8] = []
    private var counted = false
    private var lastActivity = NIODeadline.now()
    private var bodyDeadline: NIODeadline?
    private var timer: Scheduled<Void>?

    init(limits: ServerLimits, open: OpenConnections) {
        self.limits = limits
        self.open = open
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    /// Counts the connection (or answers 503 when the cap is reached) and starts the clock.
    private func start(_ context: ChannelHandlerContext) {
        guard !counted, timer == nil, case .head = state else { return }
        guard open.enter(limit: limits.maxConnections) else {
            state = .refused(at: .now())
            let answer = Self.answer(503, "the page's server has \(limits.maxConnections) connections open; try again in a moment")
            context.writeAndFlush(NIOAny(answer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        counted = true
        lastActivity = .now()
        schedule(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    private func release() {
        timer?.cancel()
        timer = nil
        if counted { open.leave() }
        counted = false
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        lastActivity = .now()
        var passed = 0  // bytes of `buffer` passed on, from its start
        let bytes = buffer.readableBytesView
        var index = bytes.startIndex
        reading: while index < bytes.endIndex {
            switch state {
            case .refused:
                break reading
            case .passthrough:
                index = bytes.endIndex
            case .body(let remaining):
                let take = min(remaining, bytes.endIndex - index)
                index += take
                if take == remaining { endRequest() } else { state = .body(remaining: remaining - take) }
            case .chunked(let counted):
                let total = counted + (bytes.endIndex - index)
                if total > limits.maxBodyBytes + limits.maxBodyBytes / 8 {
                    refuse(context, 413, Self.tooLarge(limits.maxBodyBytes))
                    break reading
                }
                state = .chunked(bytes: total)
                index = bytes.endIndex
            case .head(let started):
                let byte = bytes[index]
                index += 1
                if head.isEmpty && (byte == 13 || byte == 10) { continue }  // empty lines before a request
                if started == nil { state = .head(started: .now()) }
                head.append(byte)
                if head.count > limits.maxHeadBytes {
                    refuse(context, 431, "a request's line and headers take at most \(limits.maxHeadBytes) bytes")
                    index -= 1
                    break reading
                }
                if byte == 10, head.count >= 2, head[head.count - 2] == 10 || (head.count >= 4 && head[head.count - 2] == 13 && head[head.count - 3] == 10) {
                    if let refusal = headEnded() {
                        refuse(context, refusal.status, refusal.line)
                        break reading
                    }
                }
            }
            passed = index - bytes.startIndex
        }
        if case .refused = state {} else { passed = index - bytes.startIndex }
        if passed > 0 { context.fireChannelRead(wrapInboundOut(buffer.getSlice(at: buffer.readerIndex, length: passed)!)) }
    }

    /// A whole head has been read: what follows it (a body by its length, a chunked body, a WebSocket, the
    /// next head), or why it is refused.
    private func headEnded() -> PageRefusal? {
        let text = String(decoding: head, as: UTF8.self).lowercased()
        head.removeAll(keepingCapacity: true)
        var length = 0, chunked = false, upgrade = false
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {  // "\r\n" is one Character
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-length":
                guard let n = Int(value), n >= 0 else { return PageRefusal(status: 400, line: "a bad Content-Length: \(value)") }
                length = n
            case "transfer-encoding": chunked = chunked || value.contains("chunked")
            case "upgrade": upgrade = upgrade || value.contains("websocket")
            default: break
            }
        }
        if upgrade && !chunked && length == 0 {
            state = .passthrough
            timer?.cancel()
            timer = nil
            return nil
        }
        if chunked {
            state = .chunked(bytes: 0)
        } else if length > limits.maxBodyBytes {
            return PageRefusal(status: 413, line: Self.tooLarge(length))
        } else if length > 0 {
            state = .body(remaining: length)
        } else {
            endRequest()
            return nil
        }
        bodyDeadline = .now() + .nanoseconds(Int64(limits.bodySeconds * 1e9))
        return nil
    }

    /// The request has been read: the next head may come (the idle clock runs from here).
    private func endRequest() {
        state = .head(started: nil)
        bodyDeadline = nil
        lastActivity = .now()
    }

    static func tooLarge(_ bytes: Int) -> String {
        "the AHAP file is \(bytes) bytes; the page takes at most \(PatternPreview.maxUploadBytes) (1 MiB)"
    }

    /// Once refused, nothing more is read: a client still sending fills the sockets' buffers and waits (the
    /// linger then ends in a close), instead of being read on at the network's speed.
    func read(context: ChannelHandlerContext) {
        if case .refused = state { return }
        context.read()
    }

    // MARK: Writing

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .refused = state {  // the answer is ours: what the layers above still write is dropped
            promise?.succeed(())
            return
        }
        lastActivity = .now()
        context.write(data, promise: promise)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let refusal = event as? PageRefusal else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        refuse(context, refusal.status, refusal.line)
        promise?.succeed(())
    }

    /// Answers `status` with one line, closes the sending side, and closes the rest after the linger.
    private func refuse(_ context: ChannelHandlerContext, _ status: Int, _ line: String) {
        if case .refused = state { return }
        state = .refused(at: .now())
        if timer == nil { schedule(context) }
        context.writeAndFlush(NIOAny(Self.answer(status, line))).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
    }

    /// A whole HTTP/1.1 answer: the status, one line of text, the connection closing.
    static func answer(_ status: Int, _ line: String) -> ByteBuffer {
        let reasons = [400: "Bad Request", 408: "Request Timeout", 413: "Content Too Large", 431: "Request Header Fields Too Large",
                       403: "Forbidden", 404: "Not Found", 503: "Service Unavailable"]
        let body = line + "\n"
        let text = "HTTP/1.1 \(status) \(reasons[status] ?? "Error")\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\nCache-Control: no-store\r\n"
            + (status == 503 ? "Retry-After: 1\r\n" : "") + "\r\n" + body
        return ByteBuffer(string: text)
    }

    // MARK: The clock

    private func schedule(_ context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(250)) { [self] in
            timer = nil
            tick(context)
        }
    }

    /// Every quarter second: a head or body past its time is answered 408, an idle connection closed, a
    /// refused one closed once its answer had time to be read.
    private func tick(_ context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        func past(_ since: NIODeadline, _ seconds: Double) -> Bool { now - since > .nanoseconds(Int64(seconds * 1e9)) }
        switch state {
        case .passthrough:
            return
        case .refused(let at):
            if past(at, limits.lingerSeconds) {
                context.close(promise: nil)
                return
            }
        case .head(let started?):
            if past(started, limits.headSeconds) {
                refuse(context, 408, "a request's line and headers must arrive within \(Int(limits.headSeconds)) s")
            }
        case .head(nil):
            if past(lastActivity, limits.idleSeconds) {
                context.close(promise: nil)
                return
            }
        case .body, .chunked:
            if let deadline = bodyDeadline, now > deadline {
                refuse(context, 408, "a request's body must arrive within \(Int(limits.bodySeconds)) s")
            }
        }
        if timer == nil { schedule(context) }
    }
}

@available(*, unavailable)
extension ConnectionGuard: Sendable {}
