/// The parts of `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]`.
struct RelayURL {
    var username: String
    var password: String?
    var host: String
    var port: Int
    var database: String
    /// The URL's `sslmode=`; `disable` when it has none.
    var sslMode: SSLMode

    static let expected = "expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]"

    init(_ url: String) throws(RelayConfigurationError) {
        var rest = Substring(url)
        if rest.hasPrefix("postgres://") {
            rest = rest.dropFirst("postgres://".count)
        } else if rest.hasPrefix("postgresql://") {
            rest = rest.dropFirst("postgresql://".count)
        } else {
            throw RelayConfigurationError("the URL must start with postgres:// (\(Self.expected))")
        }
        sslMode = .disable
        if let query = rest.firstIndex(of: "?") {
            sslMode = try Self.sslMode(in: rest[rest.index(after: query)...])
            rest = rest[..<query]
        }
        guard let at = rest.lastIndex(of: "@") else {
            throw RelayConfigurationError("the URL has no USER@ (\(Self.expected))")
        }
        let credentials = rest[..<at]
        var address = rest[rest.index(after: at)...]
        guard let slash = address.firstIndex(of: "/") else {
            throw RelayConfigurationError("the URL has no /DATABASE (\(Self.expected))")
        }
        let database = try Self.decode(address[address.index(after: slash)...], "database")
        address = address[..<slash]
        let user: Substring
        if let colon = credentials.firstIndex(of: ":") {
            user = credentials[..<colon]
            password = try Self.decode(credentials[credentials.index(after: colon)...], "password")
        } else {
            user = credentials
            password = nil
        }
        username = try Self.decode(user, "user")
        guard !username.isEmpty else { throw RelayConfigurationError("the URL's user is empty (\(Self.expected))") }
        guard !database.isEmpty else {
            throw RelayConfigurationError("the URL's database is empty (\(Self.expected))")
        }
        self.database = database
        var hostPart = address
        var portPart: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else {
                throw RelayConfigurationError("the URL's host has an unclosed [ (\(Self.expected))")
            }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portPart = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, hostPart.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" }) else {
            throw RelayConfigurationError("the URL's host is empty or not plain ASCII (\(Self.expected))")
        }
        host = String(hostPart)
        if let portPart {
            guard let port = Int(portPart), (1...65_535).contains(port) else {
                throw RelayConfigurationError("the URL's port must be a number from 1 to 65535 (\(Self.expected))")
            }
            self.port = port
        } else {
            port = 5432
        }
    }

    /// The `sslmode` of a query such as `sslmode=require`; the only parameter the relay takes.
    private static func sslMode(in query: Substring) throws(RelayConfigurationError) -> SSLMode {
        var mode: SSLMode?
        for parameter in query.split(separator: "&") {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decode(pair[0], "parameter name")
            guard name == "sslmode" else {
                throw RelayConfigurationError(
                    "the URL's parameter \(PostgresRelay.Refusal.printable(name)) is not supported; the only one is "
                        + "sslmode=\(SSLMode.valid)")
            }
            guard mode == nil else { throw RelayConfigurationError("the URL gives sslmode twice; give it once") }
            mode = try SSLMode(parsing: pair.count == 2 ? decode(pair[1], "sslmode") : "")
        }
        return mode ?? .disable
    }

    /// Decodes percent-escapes.
    private static func decode(_ text: Substring, _ part: String) throws(RelayConfigurationError) -> String {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else {
                throw RelayConfigurationError("the URL's \(part) has a malformed %-escape: \(expected), %XX escapes")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw RelayConfigurationError("the URL's \(part) is not UTF-8 once %-escapes are decoded (\(expected))")
        }
        return decoded
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
