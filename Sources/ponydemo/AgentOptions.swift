import ArgumentParser
import PonyExpressAgent
import PonyExpressMonitor

/// The agent's options: where it listens, and the monitor's capacities.
struct AgentOptions: ParsableArguments {
    @Option(
        name: .customLong("tcp"),
        help: "Also listen on TCP at PORT on 127.0.0.1, or at HOST:PORT with --tcp-unauthenticated (0: any free port).")
    var tcpAddress: String?

    @Flag(
        help: "Allow --tcp on an address other than 127.0.0.1. Anyone who can reach it can attach: no authentication.")
    var tcpUnauthenticated = false

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
        let host = String(tcpAddress[..<colon])
        if host == "127.0.0.1" || host == "localhost" { return .loopback(port: port) }
        guard tcpUnauthenticated else {
            throw ValidationError(
                "--tcp: \(host) is not loopback; TCP has no authentication, so add --tcp-unauthenticated to mean it")
        }
        return .unauthenticated(host: host, port: port)
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
