import NIOCore
import NIOHTTP1
import NIOPosix
import PonyExpressAgent
import Prometheus

/// An HTTP server that serves a registry's Prometheus text on `GET /metrics` and 404 on any other path. It has no
/// authentication: anyone who can reach its address can read the figures.
///
/// Each connection costs bounded memory and time, as the agent's viewers do: one request is answered at a time and
/// only while the answers drain (reads stop above a write-buffer high-water mark, and pipelined requests wait
/// unparsed in the socket), a connection whose answers stay unread for ``unreadDeadline`` seconds, that completes
/// no request for ``idleTimeout`` seconds, that takes more than ``requestDeadline`` seconds from a request's head
/// to its end (trickling bytes does not extend it), whose request has a body over ``maximumBodyBytes``, or whose
/// request is malformed is closed, and at most ``maximumConnections`` are served at once: a new one takes the place
/// of the oldest that is not being answered (``MetricsPeers``), so that silent or trickling peers cannot keep a
/// scraper out.
final class MetricsEndpoint: Sendable {
    /// Connections served at once; a new one beyond them closes the oldest that is not being answered.
    static let maximumConnections = 32
    /// Seconds a connection may stay without completing a request before it is closed.
    static let idleTimeout: Double = 30
    /// Seconds from a request's head to its end before the connection is closed, however the bytes trickle.
    static let requestDeadline: Double = 5
    /// Body bytes a request may carry (a scrape has none); more close the connection.
    static let maximumBodyBytes = 4_096
    /// Seconds answers may stay unread above the high-water mark before the connection is closed.
    static let unreadDeadline: Double = 10
    /// Unsent bytes above which a connection's requests are not read; below the low mark, they are again.
    static let waterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 64 << 10, high: 256 << 10)

    /// The port it listens on (the one picked, if 0 was asked for).
    let port: Int
    private let channel: any Channel

    private init(channel: any Channel, port: Int) {
        self.channel = channel
        self.port = port
    }

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - address: Where to listen.
    ///   - registry: What to serve.
    /// - Throws: The error of `bind`, such as an address in use.
    static func start(
        at address: MetricsAddress, serving registry: PrometheusCollectorRegistry
    ) throws
        -> MetricsEndpoint
    {
        let connections = MetricsPeers()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 16)
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 4096))
            .childChannelOption(.writeBufferWaterMark, value: waterMark)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        MetricsHTTPHandler(registry: registry, connections: connections))
                }
            }
        let channel = try bootstrap.bind(host: address.host, port: address.port).wait()
        return MetricsEndpoint(channel: channel, port: channel.localAddress?.port ?? address.port)
    }

    /// Stops listening.
    func stop() {
        try? channel.close().wait()
    }
}
