import Dispatch
import Logging
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Synchronization
import Testing

@testable import PonyExpressRelay

#if canImport(Glibc)
    import Glibc
#endif

/// Relays between two post offices in this process through a real, throwaway PostgreSQL cluster.
@Suite(
    .blocksItsThread, .serialized, .tags(.concurrency),
    .enabled(
        if: PostgresCluster.unavailableReason == nil,
        Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct PostgresRelayTests {
    /// Two offices, each with a relay on the same channel, an inbox registered, and `CacheInvalidated` shared.
    struct Pair {
        let cluster: PostgresCluster
        let offices: (a: PostOffice, b: PostOffice)
        let inboxes = (a: RelayInbox(), b: RelayInbox())
        let relays: (a: PostgresRelay, b: PostgresRelay)
        let logs: LogCapture.Lines

        init(
            password: String? = nil, authentication: RelayConfiguration.Authentication = .key(.test),
            channel: String = "relay_tests"
        ) throws {
            let cluster = try PostgresCluster.start()
            self.cluster = cluster
            let (logger, logs) = LogCapture.logger()
            self.logs = logs
            func relay(_ office: PostOffice, _ instance: String) throws -> PostgresRelay {
                var configuration = try RelayConfiguration(url: cluster.url, channel: channel)
                configuration.instance = instance
                configuration.password = password
                configuration.maximumBackoff = .milliseconds(500)
                configuration.authentication = authentication
                let relay = try PostgresRelay.start(office: office, configuration: configuration, logger: logger)
                try relay.share(CacheInvalidated.self)
                return relay
            }
            let offices = (a: PostOffice(), b: PostOffice())
            self.offices = offices
            relays = (try relay(offices.a, "a"), try relay(offices.b, "b"))
            _ = offices.a.register(inboxes.a, RelayInbox.receive)
            _ = offices.b.register(inboxes.b, RelayInbox.receive)
        }

        func waitConnected(timeout: Double = 15) -> Bool {
            waitUntil(timeout: timeout, pollingEvery: 0.01) {
                relays.a.statistics.isConnected && relays.b.statistics.isConnected
            }
        }

        func stop() {
            relays.a.stop()
            relays.b.stop()
            cluster.stop()
        }
    }

    @Test func mailPostedInOneOfficeReachesTheOtherOnceAndItsOwnOnce() throws {
        let pair = try Pair()
        defer { pair.stop() }
        #expect(pair.waitConnected())
        let tap = RecordingTap()
        pair.offices.b.attach(tap)

        pair.offices.a.post(CacheInvalidated(key: "user:42"))
        pair.offices.a.post(CacheInvalidated(key: "user:43"))
        #expect(waitUntil(timeout: 10) { pair.inboxes.b.count == 2 })
        // B answers; PostgreSQL delivers in commit order, so once A has B's mail, an echo of A's own would be in.
        pair.offices.b.post(CacheInvalidated(key: "from b"))
        #expect(waitUntil(timeout: 10) { pair.inboxes.a.keys.contains("from b") })

        #expect(pair.inboxes.b.keys == ["user:42", "user:43", "from b"])
        #expect(pair.inboxes.a.keys == ["user:42", "user:43", "from b"])
        let remote = try #require(pair.inboxes.b.senders.first ?? nil)
        #expect(remote.instance == "a")
        #expect(remote.processId == getpid())
        #expect(remote === pair.inboxes.b.senders[1])
        #expect(pair.inboxes.b.senders[2] == nil)
        #expect(tap.posted.map(\.origin) == [.relayed, .relayed, .local])

        // A counts a batch sent when its sending connection has the answer, which may come after B's listening
        // connection had the notifications: the two are apart.
        #expect(waitUntil(timeout: 10) { pair.relays.a.figures(of: CacheInvalidated.self)?.sent == 2 })
        let figures = try #require(pair.relays.a.figures(of: CacheInvalidated.self))
        #expect(figures.sent == 2)
        #expect(figures.received == 1)
        #expect(figures.dropped == 0)
        #expect(figures.lagSamples == 1)
        #expect(pair.relays.b.figures(of: CacheInvalidated.self)?.received == 2)
    }

    @Test func aSenderFilterChoosesRemoteMailOnly() throws {
        let pair = try Pair()
        defer { pair.stop() }
        #expect(pair.waitConnected())
        final class RemoteOnly: Sendable {
            let count = Atomic(0)
            func receive(_ mail: CacheInvalidated, _ sender: RemoteSender) { count.add(1, ordering: .relaxed) }
        }
        let remoteOnly = RemoteOnly()
        _ = pair.offices.b.register(remoteOnly, RemoteOnly.receive)
        pair.offices.b.post(CacheInvalidated(key: "local"))
        pair.offices.a.post(CacheInvalidated(key: "remote"))
        #expect(waitUntil(timeout: 10) { pair.inboxes.b.count == 2 })
        #expect(remoteOnly.count.load(ordering: .relaxed) == 1)
    }

    @Test func theMonitorShowsTheRelayFiguresOfSharedTypesOnly() throws {
        let pair = try Pair()
        defer { pair.stop() }
        #expect(pair.waitConnected())
        let monitor = PostOfficeMonitor()
        monitor.attach(to: pair.offices.b)
        monitor.watch(pair.relays.b)
        struct Local: Mail {}
        pair.offices.b.post(Local())
        pair.offices.a.post(CacheInvalidated(key: "k"))
        pair.offices.b.post(CacheInvalidated(key: "k2"))
        #expect(waitUntil(timeout: 10) { pair.relays.b.figures(of: CacheInvalidated.self)?.sent == 1 })
        #expect(waitUntil(timeout: 10) { pair.inboxes.b.count == 2 })
        let snapshot = monitor.snapshot()
        let relay = try #require(snapshot.stats(of: TypeIdentity(CacheInvalidated.self))?.relay)
        #expect(relay.received == 1)
        #expect(relay.sent == 1)
        #expect(relay.lagSamples == 1)
        #expect(relay.lagP99 >= relay.lagP50)
        #expect(snapshot.stats(of: TypeIdentity(Local.self))?.relay == nil)
    }

    @Test func malformedNotificationsFromPsqlAreCountedAndLoggedNeverPosted() throws {
        let pair = try Pair()
        defer { pair.stop() }
        #expect(pair.waitConnected())
        var sequence: UInt64 = 0
        func envelope(
            format: Int = RelayEnvelope.format, type: String = "PonyExpressRelayTests.CacheInvalidated",
            version: Int = 1, mail: String
        ) -> String {
            sequence += 1
            return TestEnvelope.payload(format: format, type: type, version: version, sequence: sequence, mail: mail)
        }
        let payloads = [
            "not json at all \u{1b}[31m",
            #"{"f":1}"#,
            envelope(type: "Nobody.Knows", mail: "{}"),
            envelope(version: 2, mail: #"{"key":"x"}"#),
            envelope(mail: #"{"nokey":1}"#),
            envelope(format: 9, mail: #"{"key":"x"}"#),
        ]
        for payload in payloads {
            let result = try pair.cluster.psql(TestEnvelope.notify(payload))
            #expect(result.status == 0, "\(result.error)")
        }
        // A well-formed one from psql, signed with the fleet's key, is posted, with psql's sender.
        try pair.cluster.psql(TestEnvelope.notify(envelope(mail: #"{"key":"ok"}"#)))
        #expect(waitUntil(timeout: 10) { pair.inboxes.a.keys == ["ok"] && pair.inboxes.b.keys == ["ok"] })
        #expect(pair.relays.a.statistics.rejected == UInt64(payloads.count))
        #expect(pair.relays.b.statistics.rejected == UInt64(payloads.count))
        var expected = RelayRefusals()
        expected.notAnEnvelope = 2
        expected.unknownType = 1
        expected.otherVersion = 1
        expected.undecodable = 1
        expected.otherFormat = 1
        #expect(pair.relays.a.statistics.refusals == expected)
        #expect(pair.relays.b.statistics.refusals == expected)
        let lines = pair.logs.all.filter { $0.contains("refused") }
        #expect(lines.count == 2 * payloads.count)
        #expect(lines.contains { $0.contains("not a relay envelope") })
        #expect(lines.contains { $0.contains("Nobody.Knows") && $0.contains("does not share") })
        #expect(lines.contains { $0.contains("version 2, expected version 1") })
        #expect(lines.contains { $0.contains("does not decode") })
        #expect(lines.contains { $0.contains("format 9") })
        #expect(!pair.logs.all.contains { $0.contains("\u{1b}") })
    }

    @Test func oversizedMailIsRefusedAtPostTimeCountedAndLogged() throws {
        let pair = try Pair()
        defer { pair.stop() }
        #expect(pair.waitConnected())
        pair.offices.a.post(CacheInvalidated(key: String(repeating: "x", count: 8_000)))
        pair.offices.a.post(CacheInvalidated(key: "small"))
        #expect(waitUntil(timeout: 10) { pair.inboxes.b.keys == ["small"] })
        // A counts a batch sent once PostgreSQL answered, which may be after B already has it.
        #expect(waitUntil(timeout: 10) { pair.relays.a.figures(of: CacheInvalidated.self)?.sent == 1 })
        let figures = try #require(pair.relays.a.figures(of: CacheInvalidated.self))
        #expect(figures.dropped == 1)
        #expect(figures.sent == 1)
        #expect(pair.inboxes.a.count == 2)
        #expect(pair.logs.all.contains { $0.contains("over NOTIFY's limit of 7999") })
    }

    /// As two app instances do: both keep posting, so queries are in flight when the server dies and while each relay
    /// reconnects. Mail flows again both ways within 15 s of the restart, and the posts made while a relay had no
    /// connection are dropped and counted.
    @Test func bothPostingThroughAKillAndARestartMailFlowsAgainBothWays() throws {
        let pair = try Pair()
        defer { pair.stop() }
        #expect(pair.waitConnected())
        let posting = Atomic<Bool>(true)
        let done = DispatchGroup()
        for (office, name) in [(pair.offices.a, "a"), (pair.offices.b, "b")] {
            DispatchQueue.global().async(group: done) {
                var index = 0
                while posting.load(ordering: .relaxed) {
                    index += 1
                    office.post(CacheInvalidated(key: "\(name) \(index)"))
                    usleep(2_000)
                }
            }
        }
        defer {
            posting.store(false, ordering: .relaxed)
            done.wait()
        }
        #expect(
            waitUntil(timeout: 10) {
                pair.inboxes.a.senders.contains { $0 != nil } && pair.inboxes.b.senders.contains { $0 != nil }
            })

        pair.cluster.kill()
        #expect(
            waitUntil(timeout: 15) { !pair.relays.a.statistics.isConnected && !pair.relays.b.statistics.isConnected })
        try pair.cluster.startServer()
        // Each inbox has its own office's posts too: only mail from the other relay counts.
        func remote(_ inbox: RelayInbox) -> Int { inbox.senders.count { $0 != nil } }
        let before = (a: remote(pair.inboxes.a), b: remote(pair.inboxes.b))
        let flowed = waitUntil(timeout: 15, pollingEvery: 0.05) {
            remote(pair.inboxes.a) > before.a && remote(pair.inboxes.b) > before.b
        }
        let since = "a received \(remote(pair.inboxes.a) - before.a), b \(remote(pair.inboxes.b) - before.b)"
        #expect(flowed, "\(since) since the restart; \(pair.logs.all.suffix(6))")
        for relay in [pair.relays.a, pair.relays.b] {
            #expect(relay.statistics.connections >= 2)
            let figures = relay.figures(of: CacheInvalidated.self)
            #expect((figures?.dropped ?? 0) > 0, "posts while the server was down are dropped and counted")
        }
    }

    @Test func postgreSQLKilledAndRestartedMidRunMailFlowsAgainWithin15Seconds() throws {
        let password = "pony-secret-\(getpid())"
        let pair = try Pair(password: password)
        defer { pair.stop() }
        #expect(pair.waitConnected())
        pair.offices.a.post(CacheInvalidated(key: "before"))
        #expect(waitUntil(timeout: 10) { pair.inboxes.b.keys == ["before"] })

        pair.cluster.kill()
        #expect(
            waitUntil(timeout: 15) { !pair.relays.a.statistics.isConnected && !pair.relays.b.statistics.isConnected })
        // Posts while the server is down neither block nor crash: they are dropped and counted.
        let started = DispatchTime.now().uptimeNanoseconds
        for index in 0..<100 { pair.offices.a.post(CacheInvalidated(key: "down \(index)")) }
        #expect(DispatchTime.now().uptimeNanoseconds - started < 1_000_000_000)
        #expect(pair.relays.a.figures(of: CacheInvalidated.self)?.dropped == 100)

        try pair.cluster.startServer()
        let restarted = DispatchTime.now().uptimeNanoseconds
        // Mail flows again within 15 s: keep posting until one arrives.
        var index = 0
        let flowed = waitUntil(timeout: 15, pollingEvery: 0.05) {
            index += 1
            pair.offices.a.post(CacheInvalidated(key: "after \(index)"))
            return pair.inboxes.b.keys.contains { $0.hasPrefix("after") }
        }
        #expect(flowed)
        #expect(DispatchTime.now().uptimeNanoseconds - restarted < 15_000_000_000)
        #expect(!pair.inboxes.b.keys.contains { $0.hasPrefix("down") })
        #expect(pair.relays.a.statistics.connections >= 2)
        #expect(pair.relays.a.statistics.connectionFailures >= 1)
        #expect(pair.logs.all.contains { $0.contains("failed or lost") })
        #expect(!pair.logs.all.contains { $0.contains(password) })
    }
}
