/// Where a viewer finds an agent: `PID`, a socket `PATH`, or `HOST:PORT`.
package enum AgentAddress: Sendable, Equatable, CustomStringConvertible {
    /// A process whose socket is in the runtime directory.
    case pid(Int32)
    /// A Unix domain socket.
    case socket(String)
    /// A TCP listener.
    case tcp(host: String, port: Int)

    /// Parses what `--attach` was given.
    ///
    /// - Throws: ``AgentClientError`` describing what is valid.
    package init(parsing argument: String) throws {
        if let pid = Int32(argument), pid > 0 {
            self = .pid(pid)
        } else if argument.contains("/") {
            self = .socket(argument)
        } else if let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
            (1...65535).contains(port), colon > argument.startIndex
        {
            var host = String(argument[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            self = .tcp(host: host, port: port)
        } else {
            throw AgentClientError.badAddress(
                "'\(argument)' is not a pid, a socket path or HOST:PORT (port 1-65535)")
        }
    }

    package var description: String {
        switch self {
        case .pid(let pid): "pid \(pid)"
        case .socket(let path): path
        case .tcp(let host, let port): "\(host):\(port)"
        }
    }
}

/// Why a viewer could not attach, or lost its agent. Each description is one line.
package enum AgentClientError: Error, Equatable, CustomStringConvertible {
    case badAddress(String)
    case notFound(String)
    case unreachable(String)
    /// Connected, but no hello came in time: the app is alive but stopped or busy.
    case notAnswering(String)
    case rejected(String)

    package var description: String {
        switch self {
        case .badAddress(let detail), .notFound(let detail), .unreachable(let detail), .notAnswering(let detail),
            .rejected(let detail):
            detail
        }
    }

    /// Whether trying again later may work: the app is gone or restarting, as opposed to refusing us.
    package var isTransient: Bool {
        switch self {
        case .notFound, .unreachable, .notAnswering: true
        case .badAddress, .rejected: false
        }
    }
}
