import Foundation
import PostgresNIO

/// Where a ``PostgresRelay`` meets the other processes: a PostgreSQL server, a database and a channel.
///
/// ```swift
/// var configuration = try RelayConfiguration(url: "postgres://app:secret@db.internal:5432/app", channel: "mail")
/// configuration.tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
/// configuration.authentication = .key(try RelayKey.fromEnvironment())
/// ```
///
/// Its ``description`` never shows the password or the key, so that a configuration can be logged or printed.
public struct RelayConfiguration: Sendable, CustomStringConvertible {
    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The user to log in as.
    public var username: String
    /// The user's password, if the server asks for one. Never logged.
    public var password: String?
    /// The database; every process that shares mail must use the same one.
    public var database: String
    /// The `LISTEN`/`NOTIFY` channel: processes on the same channel share mail. 1 to 63 ASCII letters, digits or
    /// underscores.
    public var channel: String
    /// Whether to use TLS; `.disable` by default.
    public var tls: PostgresConnection.Configuration.TLS
    /// What this process is called in the sender of the mail it relays (``RemoteSender/instance``).
    public var instance: String
    /// Mail posted and not yet sent, at most; a post beyond it is dropped and counted.
    public var outboxCapacity: Int
    /// The first wait before reconnecting; each failed attempt doubles it, up to ``maximumBackoff``.
    public var initialBackoff: Duration
    /// The longest wait between attempts to connect.
    public var maximumBackoff: Duration
    /// How long one attempt to connect may take: the connection, its start-up and the server's acknowledgment of the
    /// relay's `LISTEN`.
    public var connectTimeout: Duration
    /// How the relay tells its fleet's envelopes from anyone else's; `nil` (the default) and the relay does not start.
    ///
    /// PostgreSQL has no permissions on `LISTEN`/`NOTIFY` channels: every role that can connect to the database can
    /// send on the channel. Set ``Authentication/key(_:)`` so that only envelopes signed with the fleet's key are
    /// posted, or say ``Authentication/unauthenticated`` to post whatever arrives.
    public var authentication: Authentication?
    /// How far an envelope's timestamp may be from this host's clock, either way: beyond it the envelope is refused
    /// as stale or from the future (a replay, or clocks between hosts further apart than this), and within it a
    /// replay is refused by its sequence number. 30 seconds by default; 1 second to 10 minutes.
    public var replayWindow: Duration

    /// How a relay authenticates the envelopes it sends and receives.
    public enum Authentication: Sendable {
        /// Sign every envelope with the fleet's key (HMAC-SHA256) and post only those signed with it.
        case key(RelayKey)
        /// Sign nothing and post whatever arrives on the channel, from anyone who can connect to the database:
        /// a test, or a database whose every role is trusted to speak for the app.
        case unauthenticated
    }

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The server's host.
    ///   - port: The server's port.
    ///   - username: The user.
    ///   - password: The password, if any.
    ///   - database: The database.
    ///   - channel: The channel shared by the processes.
    ///   - tls: Whether to use TLS.
    ///   - instance: This process's name in relayed mail; the host name and process id by default.
    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        channel: String = "pony_express", tls: PostgresConnection.Configuration.TLS = .disable,
        instance: String? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.channel = channel
        self.tls = tls
        self.instance = instance ?? "\(RemoteSender.localHost):\(RemoteSender.localProcessId)"
        outboxCapacity = 10_000
        initialBackoff = .milliseconds(100)
        maximumBackoff = .seconds(2)
        connectTimeout = .seconds(5)
        replayWindow = .seconds(30)
    }

    /// Reads `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]` (or `postgresql://`); user, password
    /// and database may be percent-encoded.
    ///
    /// `sslmode` is named as libpq names it, and sets ``tls``: `disable` (the default) never uses TLS; `prefer` uses
    /// it when the server offers it; `require` always uses it, without checking the server's certificate (encryption
    /// only, as in libpq); `verify-ca` also checks that a trusted authority signed the certificate, and
    /// `verify-full` that it was issued for the URL's host. Trusted authorities are the system's default trust
    /// roots; for others, set ``tls`` yourself. libpq's `allow` has no counterpart in postgres-nio and is refused.
    ///
    /// A URL without a password takes it where libpq would, so that it need not be on a command line (where the
    /// process list shows it to every user of the machine): the `PGPASSWORD` environment variable, else the first
    /// line of the password file that matches host, port, database and user (`HOST:PORT:DATABASE:USER:PASSWORD`,
    /// `*` matching anything, `\:` and `\\` escaped), named by `PGPASSFILE` or else `~/.pgpass`. As libpq does, a
    /// password file that others can read or write is ignored.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - channel: The channel shared by the processes.
    ///   - environment: Where `PGPASSWORD`, `PGPASSFILE` and `HOME` are read; the process's environment by default.
    /// - Throws: ``RelayConfigurationError`` naming what is wrong, without the password.
    public init(
        url: String, channel: String = "pony_express",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(RelayConfigurationError) {
        let parts = try RelayURL(url)
        let tls = try parts.sslMode.tls()
        let password =
            parts.password
            ?? PasswordSource.password(
                host: parts.host, port: parts.port, database: parts.database, username: parts.username,
                environment: environment)
        self.init(
            host: parts.host, port: parts.port, username: parts.username, password: password,
            database: parts.database, channel: channel, tls: tls)
        try validate()
    }

    /// Checks the channel and the bounds.
    ///
    /// - Throws: ``RelayConfigurationError`` naming what is wrong.
    public func validate() throws(RelayConfigurationError) {
        guard !channel.isEmpty, channel.utf8.count <= 63,
            channel.utf8.allSatisfy({
                $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF)
            })
        else {
            throw RelayConfigurationError(
                "the channel must be 1 to 63 ASCII letters, digits or underscores, got \(channel.utf8.count) bytes")
        }
        guard (1...65_535).contains(port) else {
            throw RelayConfigurationError("the port must be 1 to 65535, got \(port)")
        }
        guard outboxCapacity > 0 else {
            throw RelayConfigurationError("the outbox capacity must be at least 1, got \(outboxCapacity)")
        }
        guard replayWindow >= .seconds(1), replayWindow <= .seconds(600) else {
            throw RelayConfigurationError(
                "the replay window must be 1 to 600 seconds, got \(PostgresRelay.milliseconds(replayWindow)) ms")
        }
    }

    /// `postgres://USER@HOST:PORT/DATABASE channel CHANNEL`, with the password left out.
    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database) channel \(channel)"
    }

    /// What postgres-nio connects with.
    var connection: PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .nanoseconds(
            connectTimeout.components.seconds * 1_000_000_000 + connectTimeout.components.attoseconds / 1_000_000_000)
        return configuration
    }
}
