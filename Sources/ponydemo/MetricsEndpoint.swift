import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus

/// An HTTP server that serves a registry's Prometheus text on `GET /metrics` and 404 on any other path. It has no
/// authentication: anyone who can reach its address can read the figures.
final class MetricsEndpoint: Sendable {
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
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 16)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler(registry: registry))
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
