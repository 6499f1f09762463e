import Foundation
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A refused `--relay` URL is named in one line without its password, which the argument parser's own message for
/// a refused value would repeat on stderr (a log under systemd or Kubernetes). No PostgreSQL needed.
@Suite(.blocksItsThread) struct RelayArgumentTests {
    @Test(arguments: [
        "postgres://u:S3cr3tPW_xyz@127.0.0.1:99999/postgres",
        "postgres://u:S3cr3tPW_xyz@127.0.0.1:5432/postgres?sslmode=sometimes",
        "postgres://u:S3cr3tPW_xyz@127.0.0.1:5432/postgres?colour=blue",
        "mysql://u:S3cr3tPW_xyz@127.0.0.1:5432/postgres",
    ])
    func aRefusedURLNeverShowsItsPassword(url: String) throws {
        let result = try ChildProcess.run([AttachTests.ponydemo, "--relay", url, "--duration", "1"])
        #expect(result.status == 64)
        #expect(result.error.contains("--relay: "), "\(result.error)")
        #expect(!result.error.contains("S3cr3tPW_xyz") && !result.output.contains("S3cr3tPW_xyz"), "\(result.error)")
    }

    /// Without the fleet's key, or with one too short, ponydemo does not start, in one line that shows no key.
    @Test func aRelayWithoutAUsableKeyDoesNotStart() throws {
        let url = "postgres://u@127.0.0.1:5432/postgres"
        let missing = try ChildProcess.run(
            [AttachTests.ponydemo, "--relay", url, "--duration", "1"],
            environment: ["PONYEXPRESS_RELAY_KEY": nil, "PONYEXPRESS_RELAY_KEY_FILE": nil])
        #expect(missing.status == 64)
        #expect(missing.error.contains("--relay: no relay key: set PONYEXPRESS_RELAY_KEY"), "\(missing.error)")
        let short = try ChildProcess.run(
            [AttachTests.ponydemo, "--relay", url, "--duration", "1"],
            environment: ["PONYEXPRESS_RELAY_KEY": "U2hvcnRTZWNyZXQ=", "PONYEXPRESS_RELAY_KEY_FILE": nil])
        #expect(short.status == 64)
        #expect(short.error.contains("at least 32 bytes, got 11"), "\(short.error)")
        #expect(!short.error.contains("U2hvcnRTZWNyZXQ") && !short.error.contains("ShortSecret"), "\(short.error)")
    }
}

/// Two `ponydemo --relay` processes on one throwaway PostgreSQL cluster, watched with `ponytop --attach --report
/// json`: each shows the other's mail in its mail types' `relay` figures, through a server killed and restarted.
@Suite(
    .blocksItsThread, .serialized, .tags(.concurrency),
    .enabled(
        if: PostgresCluster.unavailableReason == nil,
        Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct RelayDemoTests {
    typealias Runtime = AttachTests.Runtime

    /// The `relay` figures of every shared mail type in an attached report over `seconds`, by mail type name: counts
    /// over that run.
    static func relayFigures(_ runtime: Runtime, pid: pid_t, seconds: Int = 1) throws -> [String: [String: Any]] {
        let report = try runtime.ponytop(["--attach", "\(pid)", "--report", "json", "--duration", "\(seconds)"])
        #expect(report.status == 0, "\(report.error)")
        let object = try JSONSerialization.jsonObject(with: Data(report.output.utf8)) as? [String: Any]
        var figures: [String: [String: Any]] = [:]
        for entry in object?["mail_types"] as? [[String: Any]] ?? [] {
            guard let name = entry["name"] as? String else { continue }
            if let relay = entry["relay"] as? [String: Any] { figures[name] = relay }
        }
        return figures
    }

    static func received(_ figures: [String: [String: Any]]) -> Int {
        figures.values.reduce(0) { $0 + (($1["received"] as? Int) ?? 0) }
    }

    @Test("two ponydemo processes relay their mail to each other, and again after PostgreSQL restarts")
    func twoDemosShareMail() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let runtime = Runtime()
        let arguments = ["--scenario", "app", "--rate", "0.2", "--relay", cluster.url, "--duration", "120"]
        let first = try runtime.startDemo(arguments)
        defer { runtime.stop(first) }
        let second = try runtime.startDemo(arguments)
        defer { runtime.stop(second) }

        var figures: [String: [String: Any]] = [:]
        let relayed = try waitUntil(timeout: 30, pollingEvery: 0.5) {
            figures = try Self.relayFigures(runtime, pid: second)
            return Self.received(figures) > 0
        }
        #expect(relayed, "no relayed mail in \(figures)")
        #expect(Set(figures.keys) == ["CartUpdated", "DownloadProgress", "LoginEvent", "LogoutEvent", "Reachability"])
        #expect(figures.values.contains { ($0["sent"] as? Int ?? 0) > 0 })
        #expect(figures.values.contains { $0["lag_p99_us"] is Double })
        let report = try runtime.ponytop(["--attach", "\(second)", "--report", "json", "--duration", "1"])
        let object = try JSONSerialization.jsonObject(with: Data(report.output.utf8)) as? [String: Any]
        let screenViewed = (object?["mail_types"] as? [[String: Any]])?.first {
            $0["name"] as? String == "ScreenViewed"
        }
        #expect(screenViewed?["relay"] is NSNull, "a type that is not shared has relay null")

        cluster.kill()
        try cluster.startServer()
        let restarted = Date()
        // A report counts over its own run, so any mail received in one that began after the restart flowed again.
        // Each app reconnects on its own (backoff up to 2 s, a connection attempt up to 5 s); the in-process relay
        // tests hold the 15 s promise, while two debug apps beside the whole suite get 30 s here.
        var after: [String: [String: Any]] = [:]
        let flowed = try waitUntil(timeout: 30, pollingEvery: 0.1) {
            after = try Self.relayFigures(runtime, pid: first, seconds: 3)
            return Self.received(after) > 0
        }
        if !flowed {
            let other = try Self.relayFigures(runtime, pid: second, seconds: 3)
            Issue.record("no mail relayed within 30 s of the restart: first \(after), second \(other)")
        }
        #expect(Date().timeIntervalSince(restarted) < 30 + 3 + 5, "the last report began within 30 s and ran 3 s")
        #expect(kill(first, 0) == 0 && kill(second, 0) == 0, "both apps live on")
    }
}
