import Logging
import PonyExpress
import PonyExpressRelay
import PonyTestSupport
import Testing

/// `sslmode=` against a real server that takes TLS with a self-signed certificate: `require` encrypts without
/// checking it, as libpq does; `verify-full` refuses a server it cannot trust; a server without TLS refuses
/// `require`.
@Suite(
    .blocksItsThread, .serialized, .tags(.concurrency),
    .enabled(
        if: PostgresCluster.unavailableReason == nil,
        Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct RelayTLSTests {
    static func relay(_ url: String, logger: Logger = LogCapture.logger().0) throws -> PostgresRelay {
        var configuration = try RelayConfiguration(url: url, channel: "tls_tests")
        configuration.maximumBackoff = .milliseconds(200)
        configuration.authentication = .key(.test)
        return try PostgresRelay.start(office: PostOffice(), configuration: configuration, logger: logger)
    }

    /// How many sessions other than psql's own use TLS, as the server sees them.
    static func encryptedSessions(_ cluster: PostgresCluster) throws -> Int? {
        let result = try cluster.psql(
            "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) "
                + "WHERE s.ssl AND a.pid <> pg_backend_pid()")
        return result.output.split(separator: "\n").lazy.compactMap { Int($0.filter { $0 != " " }) }.first
    }

    @Test("sslmode=require connects over TLS to a server whose certificate nobody signed; verify-full refuses it")
    func requireEncryptsAndVerifyFullRefusesAnUntrustedServer() throws {
        let cluster = try PostgresCluster.start(tls: true)
        defer { cluster.stop() }
        let requiring = try Self.relay(cluster.url + "?sslmode=require")
        defer { requiring.stop() }
        #expect(waitUntil(timeout: 15, pollingEvery: 0.01) { requiring.statistics.isConnected })
        #expect(
            try Self.encryptedSessions(cluster) == 2, "both of the relay's sessions (listening, sending) are encrypted")

        let (logger, logs) = LogCapture.logger()
        let verifying = try Self.relay(cluster.url + "?sslmode=verify-full", logger: logger)
        defer { verifying.stop() }
        #expect(waitUntil(timeout: 15, pollingEvery: 0.01) { verifying.statistics.connectionFailures >= 2 })
        #expect(verifying.statistics.connections == 0, "an untrusted certificate is never accepted")
        #expect(
            logs.all.contains { $0.hasPrefix("warning: ") && $0.contains("CERTIFICATE_VERIFY_FAILED") },
            "the log says why: \(logs.all)")
    }

    @Test("sslmode=require refuses a server without TLS; prefer falls back to plain")
    func requireRefusesAPlainServer() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let requiring = try Self.relay(cluster.url + "?sslmode=require")
        defer { requiring.stop() }
        let preferring = try Self.relay(cluster.url + "?sslmode=prefer")
        defer { preferring.stop() }
        #expect(waitUntil(timeout: 15, pollingEvery: 0.01) { preferring.statistics.isConnected })
        #expect(waitUntil(timeout: 15, pollingEvery: 0.01) { requiring.statistics.connectionFailures >= 2 })
        #expect(requiring.statistics.connections == 0)
        #expect(try Self.encryptedSessions(cluster) == 0)
    }
}
