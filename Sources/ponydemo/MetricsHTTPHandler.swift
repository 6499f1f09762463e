import NIOCore
import NIOHTTP1
import Prometheus

/// Answers one HTTP connection's requests: the registry's text on `GET /metrics` (and `HEAD`), 404 elsewhere, 405
/// for another method on `/metrics`.
final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The content type of Prometheus's text exposition format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let registry: PrometheusCollectorRegistry
    private var request: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            break
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
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
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
