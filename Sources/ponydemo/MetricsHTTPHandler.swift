import NIOCore
import NIOHTTP1
import PonyExpressAgent
import Prometheus

/// Answers one HTTP connection's requests: the registry's text on `GET /metrics` (and `HEAD`), 404 elsewhere, 405
/// for another method on `/metrics`. One request is answered at a time, and only while the answers drain; see
/// ``MetricsEndpoint`` for the bounds.
final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The content type of Prometheus's text exposition format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let registry: PrometheusCollectorRegistry
    private let connections: MetricsPeers
    private var counted = false
    private var request: HTTPRequestHead?
    /// Body bytes of the request being read, which the endpoint reads and drops up to a bound.
    private var bodyBytes = 0
    /// A whole request whose answer waits for the earlier answers to drain.
    private var waiting: HTTPRequestHead?
    /// When the connection is closed unless a whole request has come: ``MetricsEndpoint/idleTimeout`` after it
    /// opened or its last answer, ``MetricsEndpoint/requestDeadline`` after a request's head. Bytes that trickle in
    /// do not move it.
    private var requestTimer: Scheduled<Void>?
    private var unreadTimer: Scheduled<Void>?

    init(registry: PrometheusCollectorRegistry, connections: MetricsPeers) {
        self.registry = registry
        self.connections = connections
    }

    func channelActive(context: ChannelHandlerContext) {
        guard connections.admit(context.channel, limit: MetricsEndpoint.maximumConnections) else {
            context.close(promise: nil)
            return
        }
        counted = true
        closeUnlessARequestComes(within: MetricsEndpoint.idleTimeout, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestTimer?.cancel()
        unreadTimer?.cancel()
        if counted {
            counted = false
            connections.leave(context.channel)
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            request = head
            bodyBytes = 0
            closeUnlessARequestComes(within: MetricsEndpoint.requestDeadline, context: context)
        case .body(let part):
            bodyBytes += part.readableBytes
            if bodyBytes > MetricsEndpoint.maximumBodyBytes { context.close(promise: nil) }
        case .end:
            guard let head = request else { return }
            request = nil
            requestTimer?.cancel()
            requestTimer = nil
            if context.channel.isWritable {
                respond(to: head, context: context)
            } else {
                // The pipeline handler holds later requests (and stops reading) until this one is answered.
                waiting = head
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            unreadTimer?.cancel()
            unreadTimer = nil
            if let head = waiting {
                waiting = nil
                respond(to: head, context: context)
            }
        } else if unreadTimer == nil {
            unreadTimer = context.eventLoop.assumeIsolated().scheduleTask(
                in: .nanoseconds(Int64(MetricsEndpoint.unreadDeadline * 1e9))
            ) { [weak self] in
                self?.unreadTimer = nil
                if !context.channel.isWritable { context.close(promise: nil) }
            }
        }
        context.fireChannelWritabilityChanged()
    }

    /// A malformed request was answered 400 by NIO's error handler; the connection ends there.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func closeUnlessARequestComes(within seconds: Double, context: ChannelHandlerContext) {
        requestTimer?.cancel()
        requestTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) {
            [weak self] in
            self?.requestTimer = nil
            context.close(promise: nil)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var status = HTTPResponseStatus.ok
        var body: [UInt8] = []
        var contentType = Self.contentType
        if path != "/metrics" {
            status = .notFound
            body = Array("not found: only GET /metrics is served\n".utf8)
            contentType = "text/plain; charset=utf-8"
        } else if head.method != .GET && head.method != .HEAD {
            status = .methodNotAllowed
            body = Array("only GET /metrics is served\n".utf8)
            contentType = "text/plain; charset=utf-8"
        } else {
            registry.emit(into: &body)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: "\(body.count)")
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            Self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        if head.method != .HEAD {
            context.write(
                Self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let channel = context.channel
        let keepAlive = head.isKeepAlive
        // Being answered, the connection is not the one a new connection takes the place of.
        connections.setAnswering(channel, true)
        let connections = self.connections
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in
            connections.setAnswering(channel, false)
            if !keepAlive { channel.close(promise: nil) }
        }
        if keepAlive { closeUnlessARequestComes(within: MetricsEndpoint.idleTimeout, context: context) }
    }
}
