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

    init(monitor: PostOfficeMonitor, hello: Hello, socketPath: String, tcp: TCPListener?) throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let ownUid = getuid()
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
                    try Self.addHandlers(to: channel, monitor: monitor, hello: hello, refusal: refusal)
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
                            try Self.addHandlers(to: channel, monitor: monitor, hello: hello, refusal: nil)
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

    private static func addHandlers(
        to channel: any Channel, monitor: PostOfficeMonitor, hello: Hello, refusal: String?
    ) throws {
        try channel.pipeline.syncOperations.addHandlers([
            ByteToMessageHandler(FrameDecoder()),
            MessageToByteHandler(FrameEncoder()),
            AgentHandler(monitor: monitor, hello: hello, refusal: refusal),
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
