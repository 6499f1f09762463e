import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
import PonyTestSupport
import Testing

/// The snapshot's rows (per mail type, per site, per recipient, latency summaries, registrations) have one wire
/// encoding, written and read by hand for speed: these tests hold it to the decoder's rules (a field it does not know
/// skipped, a missing optional one absent, damaged bytes a ``WireError``), and ``WireGoldenTests`` to its bytes.
@Suite("the hand-written encodings", .tags(.concurrency))
struct HandWrittenCodingTests {
    struct Ping: Mail {}
    final class Screen: Sendable {
        func handle(_ mail: Ping) {}
    }

    /// A real monitor's snapshot: nil optionals (the "other" site), empty collections, queues of several labels.
    static func monitorSnapshot() -> MonitorSnapshot {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        let screen = Screen()
        office.register(screen, Screen.handle)
        office.register(queue: DispatchQueue(label: "hand.written.one")) { (_: Ping) in }
        office.register(queue: DispatchQueue(label: "hand.written.two")) { (_: Ping) in }
        office.register { (_: Ping) in }
        for _ in 0..<3 { office.post(Ping()) }
        return monitor.snapshot()
    }

    static let snapshots = [("every field filled", SnapshotFixture.make()), ("a monitor's", monitorSnapshot())]

    @Test("read back every field they wrote", arguments: [0, 1])
    func roundTrip(_ index: Int) throws {
        let (name, snapshot) = Self.snapshots[index]
        let bytes = try WireEncoder.encode(SnapshotFrame(takenAt: 1, snapshot: snapshot))
        let decoded = try WireDecoder.decode(SnapshotFrame.self, from: bytes)
        let expected = SnapshotMirror.render(snapshot)
        let read = SnapshotMirror.render(decoded.snapshot)
        for (left, right) in zip(expected, read) where left != right {
            Issue.record("\(name) snapshot: wrote \(left), read \(right)")
        }
        #expect(expected.count == read.count)
    }

    @Test("take the same encoding at the root as inside a frame")
    func rootRow() throws {
        let snapshot = SnapshotFixture.make()
        let row = snapshot.mailTypes[0]
        let framed = try WireEncoder.encode([row])
        let alone = try WireEncoder.encode(row)
        let read = try WireDecoder.decode(MailTypeStats.self, from: alone)
        #expect(try WireEncoder.encode(read) == alone)
        #expect(try WireEncoder.encode(try WireDecoder.decode([MailTypeStats].self, from: framed)) == framed)
        #expect(read.posts == row.posts && read.relay == row.relay)
    }

    /// A latency summary of a newer minor version: a field more, in the summary and in its buckets.
    struct NewerSummary: Encodable {
        struct Bucket: Encodable {
            var upperBound: UInt64, count: UInt64, share: Double
        }
        var count: UInt64 = 3, p50: UInt64 = 1, p90: UInt64 = 2, p99: UInt64 = 3, p999: UInt64 = 4, max: UInt64 = 5
        var added = ["later"]
        var buckets = [Bucket(upperBound: 1_000, count: 3, share: 1)]
    }

    /// A site row with its required fields only, as an older agent without the optional ones wrote it.
    struct SparseSite: Encodable {
        struct Lifetimes: Encodable { var ended: UInt64 = 0 }
        var live = 2, liveBlocks = 1
        var registered: UInt64 = 3, unregistered: UInt64 = 1, pruned: UInt64 = 0
        var history: [Double] = [1, 2]
        var growthLast10Seconds = -1, growthLastMinute = 2
        var lifetimes = Lifetimes()
        var deliveries: UInt64 = 7
    }

    @Test("skip a field they do not know and find a missing optional one absent")
    func versionTolerance() throws {
        let summary = try WireDecoder.decode(LatencySummary.self, from: try WireEncoder.encode(NewerSummary()))
        #expect(
            summary
                == LatencySummary(
                    count: 3, p50: 1, p90: 2, p99: 3, p999: 4, max: 5,
                    buckets: [LatencyBucket(upperBound: 1_000, count: 3)]))
        let site = try WireDecoder.decode([SiteStats].self, from: try WireEncoder.encode([SparseSite()]))
        #expect(
            site == [
                SiteStats(
                    site: nil, mailType: nil, live: 2, liveBlocks: 1, registered: 3, unregistered: 1, pruned: 0,
                    history: [1, 2], growthLast10Seconds: -1, growthLastMinute: 2,
                    lifetimes: LifetimeSummary(ended: 0, median: nil, p90: nil), deliveries: 7)
            ])
    }

    /// A mail type's row as a 1.1 agent wrote it, before bridged posts were counted.
    struct OlderMailTypeStats: Encodable {
        var mailType = TypeIdentity(Ping.self)
        var posts: UInt64 = 5, deliveries: UInt64 = 6, skipped: UInt64 = 0, pruned: UInt64 = 1
        var postsPerSecond = 1.0, deliveriesPerSecond = 2.0, postsPerSecondLong = 0.5, deliveriesPerSecondLong = 1.5
        var history: [Double] = [2]
        var recipients = RecipientCounts(total: 1, objects: 0, blocks: 1, byQueue: [:])
        var handlerLatency = LatencySummary.empty, queueWait = LatencySummary.empty
        var superclasses: [TypeIdentity] = []
        var inheritedRecipients = 0
    }

    @Test("read a mail type's row from before bridged posts as none bridged")
    func olderMailTypeRow() throws {
        let read = try WireDecoder.decode([MailTypeStats].self, from: try WireEncoder.encode([OlderMailTypeStats()]))
        #expect(read.map(\.bridgedPosts) == [0])
        #expect(read.map(\.posts) == [5])
    }

    @Test("refuse a row without a required field, by name")
    func missingField() throws {
        struct NoP99: Encodable {
            var count: UInt64 = 1, p50: UInt64 = 1, p90: UInt64 = 1, p999: UInt64 = 1, max: UInt64 = 1
            var buckets: [LatencyBucket] = []
        }
        #expect(throws: WireError.malformed("a latency summary: no field \"p99\"")) {
            try WireDecoder.decode([LatencySummary].self, from: try WireEncoder.encode([NoP99()]))
        }
        struct WrongType: Encodable { var count = "three", p50 = 1, p90 = 1, p99 = 1, p999 = 1, max = 1 }
        #expect(throws: WireError.self) {
            try WireDecoder.decode([LatencySummary].self, from: try WireEncoder.encode([WrongType()]))
        }
    }

    /// A registration as a damaged or hostile peer might write one: every field of a real one, some out of range.
    struct ForgedRegistration: Encodable {
        struct Id: Encodable { var rawValue: UInt64 = 1 }
        struct Site: Encodable {
            var fileID = "App/Screen.swift", line: UInt = 3
        }
        struct Empty: Encodable {}
        struct Kind: Encodable { var block = Empty() }
        struct Sender: Encodable { var any = Empty() }
        var id = Id(), mailType = TypeIdentity(Ping.self), kind = Kind()
        var objectIdentifier: UInt64?
        var sender = Sender(), site = Site(), registeredAt: UInt64 = 5
        var options: UInt64?
        var scopeName: String?, scopeId: UInt64?
    }

    @Test("carry a registration's scope (1.4), and refuse a scope's name without its id, by name")
    func scopedRegistration() throws {
        let read = try WireDecoder.decode(
            RecipientInfo.self, from: try WireEncoder.encode(ForgedRegistration(scopeName: "GET /", scopeId: 7)))
        #expect(read.scope == ScopeInfo(name: "GET /", id: 7))
        #expect(
            try WireDecoder.decode(RecipientInfo.self, from: try WireEncoder.encode(ForgedRegistration())).scope == nil)
        #expect(throws: WireError.malformed("a registration: no field \"scopeId\"")) {
            try WireDecoder.decode(
                RecipientInfo.self, from: try WireEncoder.encode(ForgedRegistration(scopeName: "GET /")))
        }
        let office = PostOffice()
        let scope = office.openScope("GET /rooms/:room")
        scope.run { _ = office.register { (_: Ping) in } }
        let info = try #require(office.recipients().first)
        let decoded = try WireDecoder.decode(RecipientInfo.self, from: try WireEncoder.encode(info))
        #expect(decoded.scope == info.scope && decoded.id == info.id && decoded.site == info.site)
        #expect(info.scope?.name == "GET /rooms/:room")
        scope.end()
    }

    @Test("carry a site's scope counts (1.5), and read a site without them as none")
    func siteScopes() throws {
        let scopes = [
            ScopeCounts(name: "GET /cart/updates", leakedScopes: 3, cleanScopes: 147, outlived: 2),
            ScopeCounts(name: "job", leakedScopes: 0, cleanScopes: 9, outlived: 0),
        ]
        let site = SiteStats(
            site: SourceLocation(fileID: "App/Cart.swift", line: 12), mailType: TypeIdentity(Ping.self), live: 2,
            liveBlocks: 2, registered: 150, unregistered: 148, pruned: 0, history: [1, 2], scopes: scopes)
        let decoded = try WireDecoder.decode(SiteStats.self, from: try WireEncoder.encode(site))
        #expect(decoded.scopes == scopes && decoded.site == site.site && decoded.registered == 150)
        let plain = SiteStats(
            site: nil, mailType: nil, live: 0, liveBlocks: 0, registered: 0, unregistered: 0, pruned: 0, history: [])
        #expect(try WireDecoder.decode(SiteStats.self, from: try WireEncoder.encode(plain)).scopes.isEmpty)
    }

    @Test("read a registration by hand, refusing a null object and options out of range")
    func registration() throws {
        let read = try WireDecoder.decode(RecipientInfo.self, from: try WireEncoder.encode(ForgedRegistration()))
        #expect(read.kind == .block && read.sender == .any && read.options == [] && !read.isOverLimit)
        #expect(read.objectIdentifier == nil && read.queueLabel == nil && read.requiredSender == nil)
        #expect(read.site == SourceLocation(fileID: "App/Screen.swift", line: 3) && read.registeredAt == 5)
        #expect(throws: WireError.malformed("a registration: an object identifier cannot be 0")) {
            try WireDecoder.decode(
                RecipientInfo.self, from: try WireEncoder.encode(ForgedRegistration(objectIdentifier: 0)))
        }
        #expect(throws: WireError.malformed("a registration: 256 does not fit UInt8")) {
            try WireDecoder.decode(RecipientInfo.self, from: try WireEncoder.encode(ForgedRegistration(options: 256)))
        }
    }

    @Test("throw a one-line WireError on every cut and every flipped byte, or read a snapshot")
    func hostileInput() throws {
        let payload = try SnapshotFrame(takenAt: 1, snapshot: SnapshotFixture.make()).frame.payload
        for cut in 0..<payload.count {
            #expect(throws: WireError.self, "cut at \(cut)") {
                try WireDecoder.decode(SnapshotFrame.self, from: Array(payload[..<cut]))
            }
        }
        for index in payload.indices {
            for flip: UInt8 in [0x01, 0x80, 0xff] {
                var bytes = payload
                bytes[index] ^= flip
                do {
                    _ = try WireDecoder.decode(SnapshotFrame.self, from: bytes)
                } catch {
                    #expect(error is WireError, "byte \(index) ^ \(flip): \(error)")
                    #expect(!"\(error)".contains("\n"))
                }
            }
        }
    }
}
