/// Where an agent also listens on TCP, on this machine's loopback: for a container's sidecar, or another host through
/// an SSH tunnel.
///
/// TCP connections are **not authenticated or encrypted**: anyone who can reach the address can read the app's
/// statistics. So an agent listens only on a loopback address (127.0.0.0/8, `::1`, `localhost`), where only this
/// machine's users can reach it, and ``MonitorAgent/start(watching:settings:limits:tcp:runtimeDirectory:logging:)``
/// refuses any other address in one line, before it opens anything.
public struct TCPListener: Sendable, Equatable {
    /// The address to bind.
    public let host: String
    /// The port; 0 picks a free one (see ``MonitorAgent/tcpPort``).
    public let port: Int

    /// A listener on `host`, which ``MonitorAgent`` binds only if it is loopback.
    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Listens on 127.0.0.1.
    public static func loopback(port: Int) -> TCPListener {
        TCPListener(host: "127.0.0.1", port: port)
    }

    /// Listened on any address. Now a loopback address only: an agent refuses to listen unauthenticated beyond
    /// loopback.
    @available(
        *, deprecated,
        message: "an agent listens unauthenticated only on loopback: use loopback(port:), and an SSH tunnel to reach it"
    )
    public static func unauthenticated(host: String, port: Int) -> TCPListener {
        TCPListener(host: host, port: port)
    }

    /// Whether ``host`` is a loopback address: 127.0.0.0/8 in dotted form, `::1` (with or without brackets) or
    /// `localhost`.
    public var isLoopback: Bool {
        let host = self.host.trimmingPrefix("[").split(separator: "]").first.map(String.init) ?? self.host
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }

    /// Refuses a listener beyond loopback: TCP here has no authentication and no encryption.
    func validate() throws(AgentError) {
        guard isLoopback else {
            throw AgentError.cannotListen(
                "TCP on \(host) is beyond loopback, and the agent's TCP is neither authenticated nor encrypted: "
                    + "listen on 127.0.0.1 (TCPListener.loopback(port:)) and reach it through an SSH tunnel")
        }
    }
}
