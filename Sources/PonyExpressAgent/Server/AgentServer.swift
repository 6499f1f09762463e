import Glibc
import NIOCore
import NIOPosix
import PonyExpressMonitor
import PonyExpressWire

/// The agent's listeners: a Unix domain socket, and a TCP one if asked for. Runs on NIO's shared event loops.
final class AgentServer: Sendable {
    let socketPath: String
    let tcpAddress: SocketAddress?
    private let channels: [any Channel]

    /// The viewers served now, over every listener.
    let viewers: PeerCount

    init(
        monitor: PostOfficeMonitor, hello: Hello, limits: MonitorAgent.Limits, socketPath: String, tcp: TCPListener?
    ) throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let ownUid = getuid()
        let viewers = PeerCount()
        self.viewers = viewers
        let unix = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 16)
            .childChannelInitializer { channel in
                let provider = channel as! any SocketOptionProvider
                let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
                    level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(PeerCredentials.option))
                return credentials.flatMapThrowing { peer in
                    let refusal =
                        peer.uid == ownUid || peer.uid == 0
                        ? nil
                        : "refused: this app (pid \(hello.pid)) accepts viewers of uid \(ownUid) or root only; "
                            + "the viewer runs as uid \(peer.uid)"
                    try Self.addHandlers(
                        to: channel, monitor: monitor, hello: hello, limits: limits, viewers: viewers, refusal: refusal)
                }
            }
        do {
            // Bind under a name --list ignores, narrow the mode, then give it its name: nobody ever sees the socket
            // with the mode bind gave it.
            let binding = socketPath + ".binding"
            var channels = [try unix.bind(unixDomainSocketPath: binding, cleanupExistingSocketFile: true).wait()]
            guard chmod(binding, 0o600) == 0, rename(binding, socketPath) == 0 else {
                let reason = String(cString: strerror(errno))
                try? channels[0].close().wait()
                unlink(binding)
                throw AgentError.cannotListen("cannot set up \(socketPath): \(reason)")
            }
            if let tcp {
                let bootstrap = ServerBootstrap(group: group)
                    .serverChannelOption(.backlog, value: 16)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .childChannelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try Self.addHandlers(
                                to: channel, monitor: monitor, hello: hello, limits: limits, viewers: viewers,
                                refusal: nil)
                        }
                    }
                channels.append(try bootstrap.bind(host: tcp.host, port: tcp.port).wait())
            }
            self.channels = channels
        } catch {
            unlink(socketPath)
            throw AgentError.cannotListen("\(error)")
        }
        self.socketPath = socketPath
        tcpAddress = channels.count > 1 ? channels[1].localAddress : nil
    }

    /// Bounds the channel (reads only when the handler asks, small reads, the write water marks) and adds the
    /// session's handlers.
    private static func addHandlers(
        to channel: any Channel, monitor: PostOfficeMonitor, hello: Hello, limits: MonitorAgent.Limits,
        viewers: PeerCount, refusal: String?
    ) throws {
        let options = channel.syncOptions!
        try options.setOption(.autoRead, value: false)
        try options.setOption(.maxMessagesPerRead, value: 1)
        try options.setOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 4096))
        try options.setOption(
            .writeBufferWaterMark,
            value: .init(low: limits.writeBufferLowWaterMark, high: limits.writeBufferHighWaterMark))
        try channel.pipeline.syncOperations.addHandlers([
            MessageToByteHandler(FrameEncoder()),
            AgentHandler(monitor: monitor, hello: hello, limits: limits, viewers: viewers, refusal: refusal),
        ])
    }

    /// Stops listening, ends every session and removes the socket file.
    func close() {
        for channel in channels {
            try? channel.close().wait()
        }
        unlink(socketPath)
    }
}
