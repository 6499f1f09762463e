import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import PonyExpress

/// An HTTP endpoint served on NIO's shared event loops, where a Hummingbird or Vapor app serves its traffic, and a
/// client that times one request at a time over one kept-alive connection: what an app's own endpoint answers while
/// viewers watch it. Used by one thread at a time (the app loop of one phase, then the next).
final class HTTPProbe: @unchecked Sendable {
    private let server: any Channel
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 4_096)
    private static let request = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

    /// Starts the endpoint on a free loopback port and connects to it.
    init() throws {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 8)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(HealthHandler())
                }
            }
        server = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        guard let port = server.localAddress?.port else { throw HTTPProbeError("the endpoint has no port") }
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPProbeError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw HTTPProbeError("connect to the endpoint: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
        try? server.close().wait()
    }

    /// Sends one request and reads its whole response; returns the time it took in milliseconds, or `nil` when the
    /// endpoint did not answer.
    func roundTrip() -> Double? {
        let start = MonotonicClock.now()
        let sent = Self.request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == Self.request.count else { return nil }
        // The response ends with its 2-byte body, "ok", after the header's blank line.
        var received: [UInt8] = []
        while !Self.isComplete(received) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        return Double(MonotonicClock.now() - start) / 1e6
    }

    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 6 else { return false }
        return bytes.suffix(6).elementsEqual(Array("\r\n\r\nok".utf8))
    }
}

/// Answers every request with `200 ok`, keeping the connection.
private final class HealthHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var head = HTTPResponseHead(version: .http1_1, status: .ok)
        head.headers.add(name: "content-length", value: "2")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "ok")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

struct HTTPProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
