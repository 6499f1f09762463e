import Glibc
import NIOCore
import NIOPosix
import PonyExpressMonitor
import PonyExpressWire

/// The agent's listeners: a Unix domain socket, and a TCP one if asked for. Runs on event loops of its own
/// (``MonitorAgent/Limits/threads``), never the app's or NIO's shared ones: a Hummingbird or Vapor app serves its
/// traffic on `MultiThreadedEventLoopGroup.singleton`, and a viewer's snapshots there took its threads.
final class AgentServer: Sendable {
    let socketPath: String
    let tcpAddress: SocketAddress?
    private let group: MultiThreadedEventLoopGroup

    /// The viewers served now, over every listener.
    let viewers: ViewerSlots

    init(
        monitor: PostOfficeMonitor, hello: Hello, limits: MonitorAgent.Limits, socketPath: String, tcp: TCPListener?
    ) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: limits.threads)
        self.group = group
        let budget = SnapshotBudget(share: limits.snapshotShare)
        let ownUid = getuid()
        let viewers = ViewerSlots()
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
                        to: channel, monitor: monitor, hello: hello, limits: limits, viewers: viewers, budget: budget,
                        refusal: refusal)
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
                                budget: budget, refusal: nil)
                        }
                    }
                channels.append(try bootstrap.bind(host: tcp.host, port: tcp.port).wait())
            }
            tcpAddress = channels.count > 1 ? channels[1].localAddress : nil
        } catch {
            unlink(socketPath)
            try? group.syncShutdownGracefully()
            throw AgentError.cannotListen("\(error)")
        }
        self.socketPath = socketPath
    }

    /// Bounds the channel (reads only when the handler asks, small reads, the write water marks) and adds the
    /// session's handlers.
    private static func addHandlers(
        to channel: any Channel, monitor: PostOfficeMonitor, hello: Hello, limits: MonitorAgent.Limits,
        viewers: ViewerSlots, budget: SnapshotBudget, refusal: String?
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
            AgentHandler(
                monitor: monitor, hello: hello, limits: limits, viewers: viewers, budget: budget, refusal: refusal),
        ])
    }

    /// Stops listening, ends every session and removes the socket file. Called on an event loop (an app's request
    /// handler that stops its agent), it ends them without waiting: a loop's thread must not wait for loops to end.
    func close() {
        unlink(socketPath)
        if MultiThreadedEventLoopGroup.currentEventLoop == nil {
            try? group.syncShutdownGracefully()
        } else {
            group.shutdownGracefully { _ in }
        }
    }
}
