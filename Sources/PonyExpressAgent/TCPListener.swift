/// Where an agent also listens on TCP, for containers and remote debugging.
///
/// TCP connections are **not authenticated**: anyone who can reach the address can read the app's statistics and
/// reset them. The loopback default keeps that to the users of this machine; ``unauthenticated(host:port:)`` says
/// in its name what binding elsewhere means.
public struct TCPListener: Sendable, Equatable {
    /// The address to bind.
    public let host: String
    /// The port; 0 picks a free one (see ``MonitorAgent/tcpPort``).
    public let port: Int

    /// Listens on 127.0.0.1.
    public static func loopback(port: Int) -> TCPListener {
        TCPListener(host: "127.0.0.1", port: port)
    }

    /// Listens on any address, such as `0.0.0.0` in a container. Anyone who can reach it can attach.
    public static func unauthenticated(host: String, port: Int) -> TCPListener {
        TCPListener(host: host, port: port)
    }
}
