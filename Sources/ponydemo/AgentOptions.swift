import ArgumentParser
import PonyExpressAgent
import PonyExpressMonitor

/// The agent's options: where it listens, and the monitor's capacities.
struct AgentOptions: ParsableArguments {
    @Option(
        name: .customLong("tcp"),
        help: "Also listen on TCP at PORT on 127.0.0.1, or at HOST:PORT on a loopback address (0: any free port).")
    var tcpAddress: String?

    @Option(help: "How many mail types the monitor tracks one by one (1 to 100000).")
    var mailTypeCapacity: Int?

    @Option(help: "How many registration sites the monitor tracks one by one (1 to 100000).")
    var siteCapacity: Int?

    /// The TCP listener asked for, if any.
    func listener() throws -> TCPListener? {
        guard let tcpAddress else { return nil }
        if let port = Int(tcpAddress), (0...65535).contains(port) { return .loopback(port: port) }
        guard let colon = tcpAddress.lastIndex(of: ":"), let port = Int(tcpAddress[tcpAddress.index(after: colon)...]),
            (0...65535).contains(port)
        else {
            throw ValidationError("--tcp: expected PORT or HOST:PORT with a port from 0 to 65535, got '\(tcpAddress)'")
        }
        let listener = TCPListener.loopback(port: port)
        // An IPv6 address comes in brackets (`[::1]:9400`); the listener binds it without them.
        var host = tcpAddress[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        let asked = TCPListener(host: String(host), port: port)
        guard asked.isLoopback else {
            throw ValidationError(
                "--tcp: \(asked.host) is not loopback, and the agent's TCP has no authentication or encryption: "
                    + "use PORT or 127.0.0.1:PORT, and an SSH tunnel from another host")
        }
        return asked.host == "localhost" ? listener : asked
    }

    /// The monitor's settings.
    func settings() throws -> MonitorSettings {
        var settings = MonitorSettings()
        if let mailTypeCapacity { settings.mailTypeCapacity = mailTypeCapacity }
        if let siteCapacity { settings.siteCapacity = siteCapacity }
        do {
            try settings.validate()
        } catch {
            throw ValidationError("\(error)")
        }
        return settings
    }
}
