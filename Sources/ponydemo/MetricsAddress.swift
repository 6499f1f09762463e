import ArgumentParser

/// Where `--metrics` serves Prometheus text: `PORT` or `:PORT` (127.0.0.1), or `HOST:PORT`.
struct MetricsAddress: Sendable, Equatable {
    /// The address to listen on; 127.0.0.1 unless another was given.
    let host: String
    /// The port; 0 picks any free one.
    let port: Int

    /// Whether only this machine can reach the address: 127.0.0.0/8, `::1` or `localhost`.
    var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }

    /// The host as a URL writes it: an IPv6 address in brackets.
    var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    /// What `--metrics` accepts, for its errors.
    static let expected = "expected PORT, :PORT (both on 127.0.0.1) or HOST:PORT, with a port from 0 to 65535"

    /// Parses `--metrics`'s value.
    static func parse(_ argument: String) throws -> MetricsAddress {
        let colon = argument.lastIndex(of: ":")
        let portText = colon.map { argument[argument.index(after: $0)...] } ?? argument[...]
        var host = colon.map { String(argument[..<$0]) } ?? ""
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw ValidationError("\(portText.isEmpty ? "no port" : "bad port '\(portText)'"); \(expected)")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count > 2 { host = String(host.dropFirst().dropLast()) }
        guard !host.contains(where: { $0 == " " || $0 == "/" || $0 == "[" || $0 == "]" }) else {
            throw ValidationError("bad host '\(host)'; \(expected)")
        }
        return MetricsAddress(host: host.isEmpty ? "127.0.0.1" : host, port: port)
    }
}
