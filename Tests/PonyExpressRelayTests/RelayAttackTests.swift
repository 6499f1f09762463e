import Dispatch
import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Synchronization
import Testing

@testable import PonyExpressRelay

/// What a role with nothing but `CONNECT` on the database can do to two relays of a fleet: inject, impersonate,
/// replay, skew the lag, flood. Each is refused and counted by reason, nothing it sends is posted or moves a figure,
/// and a flood does not stop the relays' own mail. Figures go to the test's output for the Relay article.
@Suite(
    .blocksItsThread, .serialized, .tags(.concurrency),
    .enabled(
        if: PostgresCluster.unavailableReason == nil,
        Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct RelayAttackTests {
    /// A pair of relays with the fleet's key, and the role `lowpriv`, which may connect and do nothing else.
    static func pairWithOutsider() throws -> PostgresRelayTests.Pair {
        let pair = try PostgresRelayTests.Pair()
        try pair.cluster.psql(
            "CREATE ROLE lowpriv LOGIN; REVOKE ALL ON DATABASE postgres FROM PUBLIC; "
                + "GRANT CONNECT ON DATABASE postgres TO lowpriv")
        return pair
    }

    /// Runs SQL as `lowpriv`, one transaction per call.
    static func asOutsider(_ pair: PostgresRelayTests.Pair, _ sql: String) throws {
        let result = try pair.cluster.psql(sql, user: "lowpriv")
        #expect(result.status == 0, "\(result.error)")
    }

    @Test func injectionImpersonationReplayAndSkewAreRefusedCountedAndNeverPosted() throws {
        let pair = try Self.pairWithOutsider()
        defer { pair.stop() }
        #expect(pair.waitConnected())
        let started = DispatchTime.now().uptimeNanoseconds
        let victim = pair.relays.a.identity.relayId
        let now = WallClock.nanoseconds()
        let second: UInt64 = 1_000_000_000
        // Injection: an envelope of the right shape, unsigned; and the issue's 57-year lag, unsigned.
        try Self.asOutsider(
            pair, TestEnvelope.notify(TestEnvelope.payload(relayId: "intruder", mail: #"{"key":"injected"}"#, key: nil))
        )
        try Self.asOutsider(
            pair,
            TestEnvelope.notify(
                TestEnvelope.payload(relayId: "intruder", sequence: 2, stamp: 1, mail: #"{"key":"old"}"#, key: nil)))
        // Impersonation: relay a's own id (which LISTEN reveals), without a signature, with another fleet's key, and
        // with a signature copied from another envelope.
        try Self.asOutsider(
            pair,
            TestEnvelope.notify(
                TestEnvelope.payload(relayId: victim, sequence: 900, mail: #"{"key":"as-a-1"}"#, key: nil)))
        try Self.asOutsider(
            pair,
            TestEnvelope.notify(
                TestEnvelope.payload(relayId: victim, sequence: 901, mail: #"{"key":"as-a-2"}"#, key: .other)))
        let genuine = TestEnvelope.payload(relayId: "fleet-x", sequence: 7, mail: #"{"key":"genuine"}"#)
        let copiedSignature = genuine.replacingOccurrences(of: #""r":"fleet-x""#, with: #""r":"\#(victim)""#)
        #expect(copiedSignature != genuine)
        try Self.asOutsider(pair, TestEnvelope.notify(copiedSignature))
        // Replay: a valid envelope of the fleet (as a LISTEN captures it) is posted once, then sent again.
        try Self.asOutsider(pair, TestEnvelope.notify(genuine))
        #expect(waitUntil(timeout: 10) { pair.inboxes.a.keys == ["genuine"] && pair.inboxes.b.keys == ["genuine"] })
        try Self.asOutsider(pair, TestEnvelope.notify(genuine))
        // Replay outside the window, and skew: valid signatures, stamps 31 s and 40 years back, 10 years ahead.
        try Self.asOutsider(
            pair,
            TestEnvelope.notify(
                TestEnvelope.payload(
                    relayId: "fleet-y", sequence: 1, stamp: now - 31 * second, mail: #"{"key":"stale"}"#)))
        try Self.asOutsider(
            pair,
            TestEnvelope.notify(
                TestEnvelope.payload(relayId: "fleet-y", sequence: 2, stamp: 1, mail: #"{"key":"1970"}"#)))
        try Self.asOutsider(
            pair,
            TestEnvelope.notify(
                TestEnvelope.payload(
                    relayId: "fleet-y", sequence: 3, stamp: now + 315_360_000 * second, mail: #"{"key":"2036"}"#)))
        var expected = RelayRefusals()
        expected.unsigned = 3
        expected.forged = 2
        expected.replayed = 1
        expected.stale = 2
        expected.future = 1
        let counted = waitUntil(timeout: 10) {
            pair.relays.a.statistics.refusals == expected && pair.relays.b.statistics.refusals == expected
        }
        #expect(counted, "a: \(pair.relays.a.statistics.refusals), b: \(pair.relays.b.statistics.refusals)")
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        // The relays' own mail still flows, with a's genuine sender; nothing of the attacker's was posted.
        pair.offices.a.post(CacheInvalidated(key: "from-a"))
        #expect(waitUntil(timeout: 10) { pair.inboxes.b.keys == ["genuine", "from-a"] })
        #expect(pair.inboxes.a.keys == ["genuine", "from-a"])
        #expect(pair.inboxes.b.senders.last??.relayId == victim)
        #expect(pair.inboxes.b.senders.last??.instance == "a")
        // Only authenticated relays entered the sender cache; the lag stayed that of the genuine arrivals.
        let knownToB = pair.relays.b.state.withLock { Set($0.knownRelays.entries.keys) }
        #expect(knownToB == ["fleet-x", victim])
        for relay in [pair.relays.a, pair.relays.b] {
            let figures = try #require(relay.figures(of: CacheInvalidated.self))
            #expect(figures.lagP99 < 5 * second, "lag \(figures.lagP99) ns")
        }
        let lines = pair.logs.all.filter { $0.contains("refused") }
        #expect(lines.contains { $0.contains("unsigned envelope naming relay \(victim)") })
        #expect(lines.contains { $0.contains("wrong signature") })
        #expect(lines.contains { $0.contains("a replay of relay fleet-x's envelope 7") })
        #expect(lines.contains { $0.contains("ahead, outside the window") })
        print(
            "relay attacks: 9 envelopes from lowpriv refused by both relays (unsigned 3, forged 2, replayed 1, stale 2, "
                + "future 1) in \(String(format: "%.2f", elapsed)) s; delivered 0; b's lag p99 "
                + "\(pair.relays.b.figures(of: CacheInvalidated.self)?.lagP99 ?? 0) ns")
    }

    /// The flood: 100,000 notifications of about 100 bytes that are not envelopes, in one transaction. To find where
    /// the relay stops keeping up, `PONY_RELAY_FLOOD=COUNT,BYTES[,envelopes]` sets another (`envelopes`: unsigned
    /// envelopes of the right shape, which cost the relay a JSON decoding each), as the Relay article's figures did.
    static let flood: (count: Int, bytes: Int, envelopes: Bool) = {
        let parts = (ProcessInfo.processInfo.environment["PONY_RELAY_FLOOD"] ?? "").split(separator: ",")
        guard parts.count >= 2, let count = Int(parts[0]), let bytes = Int(parts[1]) else {
            return (100_000, 100, false)
        }
        return (count, bytes, parts.count > 2 && parts[2] == "envelopes")
    }()

    @Test(
        .skipped(
            under: .thread, .address,
            because: "it measures throughput under a flood, which a sanitizer's slowdown leaves unread in its wait"))
    func aFloodFromAnOutsiderDoesNotSilenceTheRelaysOwnPosts() throws {
        let pair = try Self.pairWithOutsider()
        defer { pair.stop() }
        #expect(pair.waitConnected())
        let connectionsBefore = pair.relays.a.statistics.connections
        let (flood, bytes, envelopes) = Self.flood
        let memory = PeakResidentMemory()
        let started = DispatchTime.now().uptimeNanoseconds
        // One transaction of notifications, committed while a posts its own mail.
        let payload =
            envelopes
            ? #"'{"f":2,"r":"intruder","h":"h","p":1,"i":"x","t":"PonyExpressRelayTests.CacheInvalidated","v":1,"n":' || g || ',"s":1,"m":"' || repeat('x', \#(max(0, bytes - 130))) || '"}'"#
            : "'flood ' || g || repeat('x', \(max(0, bytes - 12)))"
        let outsider = Thread {
            let result = try? pair.cluster.psql(
                "SELECT count(pg_notify('relay_tests', \(payload))) FROM generate_series(1, \(flood)) g",
                user: "lowpriv")
            if result?.status != 0 { print("relay flood: psql failed: \(result?.error ?? "")") }
        }
        outsider.start()
        // a posts every 2 ms until both relays have read the whole flood (at least 500 posts), and the backlog of
        // its posts not yet sent is sampled as it goes: the flood must not hold it up.
        let limit = DispatchTime.now().uptimeNanoseconds + UInt64(30 + flood / 5_000) * 1_000_000_000
        func floodRead() -> Bool {
            pair.relays.a.statistics.refusals.total == UInt64(flood)
                && pair.relays.b.statistics.refusals.total == UInt64(flood)
        }
        var posts = 0
        var largestBacklog = 0
        while posts < 500 || (!floodRead() && DispatchTime.now().uptimeNanoseconds < limit) {
            pair.offices.a.post(CacheInvalidated(key: "own-\(posts)"))
            posts += 1
            let sent = Int(pair.relays.a.figures(of: CacheInvalidated.self)?.sent ?? 0)
            largestBacklog = max(largestBacklog, posts - sent)
            Thread.sleep(forTimeInterval: 0.002)
        }
        let floodReadAt = DispatchTime.now().uptimeNanoseconds
        let read = floodRead()
        let refused = (a: pair.relays.a.statistics.refusals.total, b: pair.relays.b.statistics.refusals.total)
        #expect(read, "a refused \(refused.a), b \(refused.b) of the \(flood)")
        let arrived = waitUntil(timeout: 15, pollingEvery: 0.01) {
            pair.relays.a.figures(of: CacheInvalidated.self)?.sent == UInt64(posts) && pair.inboxes.b.count == posts
        }
        memory.stop()
        let aFigures = pair.relays.a.figures(of: CacheInvalidated.self)
        #expect(arrived, "a sent \(aFigures?.sent ?? 0), b received \(pair.inboxes.b.count) of \(posts)")
        let inOrder = pair.inboxes.b.keys == (0..<posts).map { "own-\($0)" }
        #expect(inOrder, "b received \(pair.inboxes.b.count) of a's \(posts) posts, or not in order")
        #expect(aFigures?.dropped == 0)
        #expect(pair.relays.a.statistics.connections == connectionsBefore, "a reconnected during the flood")
        #expect(pair.relays.a.statistics.connectionFailures == 0)
        #expect(pair.relays.b.statistics.connectionFailures == 0)
        #expect(largestBacklog < 500, "a's posts waited behind the flood: \(largestBacklog) unsent at once")
        let bFigures = pair.relays.b.figures(of: CacheInvalidated.self)
        print(
            "relay flood: \(flood) \(envelopes ? "unsigned envelopes" : "notifications") of \(bytes) bytes from lowpriv "
                + "in one transaction; "
                + (read ? "both relays had read and refused them all " : "a had refused \(refused.a), b \(refused.b) ")
                + "\(String(format: "%.2f", Double(floodReadAt - started) / 1e9)) s after the start, while a posted "
                + "\(posts) (one per 2 ms): at most \(largestBacklog) of them unsent at once, \(aFigures?.sent ?? 0) sent, "
                + "\(aFigures?.dropped ?? 0) dropped, \(pair.relays.a.statistics.connections - connectionsBefore) "
                + "reconnections; b received \(pair.inboxes.b.count), lag p50 "
                + "\(String(format: "%.1f", Double(bFigures?.lagP50 ?? 0) / 1e6)) ms, p99 "
                + "\(String(format: "%.1f", Double(bFigures?.lagP99 ?? 0) / 1e6)) ms (the flood's queue); peak resident "
                + "memory +\(memory.peakGrowthMegabytes) MB over the test's start")
    }

    @Test func theSenderCacheIsBoundedAndEvictsTheQuietestWithoutForgettingItsReplays() {
        let second: UInt64 = 1_000_000_000
        var known = KnownRelays(capacity: 3, window: 30 * second)
        func envelope(_ relay: String, _ sequence: UInt64, at stamp: UInt64) -> Envelope {
            Envelope(f: 2, r: relay, h: "h", p: 1, i: relay, t: "T", v: 1, n: sequence, s: stamp, m: "{}")
        }
        let now = 1_000 * second
        #expect(known.admit(envelope("a", 1, at: now - 3 * second), now: now).isAdmitted)
        #expect(known.admit(envelope("b", 1, at: now - 2 * second), now: now).isAdmitted)
        #expect(known.admit(envelope("c", 1, at: now - 1 * second), now: now).isAdmitted)
        #expect(!known.admit(envelope("a", 1, at: now - 3 * second), now: now).isAdmitted)
        #expect(known.admit(envelope("a", 3, at: now - 3 * second), now: now).isAdmitted)
        #expect(known.admit(envelope("a", 2, at: now - 3 * second), now: now).isAdmitted)
        #expect(!known.admit(envelope("a", 2, at: now - 3 * second), now: now).isAdmitted)
        #expect(known.admit(envelope("a", 100, at: now), now: now).isAdmitted)
        #expect(!known.admit(envelope("a", 30, at: now), now: now).isAdmitted)
        // Full: a fourth relay evicts the quietest (b), and b's old envelope cannot come back as new.
        #expect(known.admit(envelope("d", 1, at: now), now: now).isAdmitted)
        #expect(known.entries.count == 3)
        #expect(known.entries["b"] == nil)
        #expect(!known.admit(envelope("b", 1, at: now - 2 * second), now: now).isAdmitted)
        #expect(known.admit(envelope("e", 1, at: now + second), now: now + second).isAdmitted)
        #expect(known.entries.count == 3)
    }
}

extension KnownRelays.Admission {
    var isAdmitted: Bool {
        if case .admitted = self { return true }
        return false
    }
}

/// The largest resident set of this process, sampled every 5 ms from `/proc/self/status` until stopped.
final class PeakResidentMemory: Sendable {
    private let state = Mutex<(start: Int, peak: Int, stopped: Bool)>((0, 0, false))

    init() {
        let start = Self.residentKilobytes()
        state.withLock { $0 = (start, start, false) }
        Thread.detachNewThread { [self] in
            while !state.withLock({ $0.stopped }) {
                let now = Self.residentKilobytes()
                state.withLock { $0.peak = max($0.peak, now) }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    func stop() { state.withLock { $0.stopped = true } }

    var peakGrowthMegabytes: Int { state.withLock { ($0.peak - $0.start) / 1_024 } }

    static func residentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
