import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
import PonyTestSupport
import Testing

/// The snapshot's rows (per mail type, per site, per recipient, latency summaries) are written and read by hand for
/// speed: these tests hold them to the generic `Codable` encoding they replace, byte for byte.
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

    @Test("write the generic encoder's bytes", arguments: [0, 1])
    func sameBytes(_ index: Int) throws {
        let (name, snapshot) = Self.snapshots[index]
        let frame = SnapshotFrame(takenAt: 1_700_000_000.5, snapshot: snapshot)
        let generic = try WireEncoder.encode(frame, handWritten: false)
        let handWritten = try WireEncoder.encode(frame)
        #expect(handWritten == generic, "\(name) snapshot")
        // Each row type on its own too (the root value always takes the generic encoding: wrap it).
        #expect(
            try WireEncoder.encode([snapshot.sites]) == (try WireEncoder.encode([snapshot.sites], handWritten: false)))
        #expect(
            try WireEncoder.encode([snapshot.mailTypes])
                == (try WireEncoder.encode([snapshot.mailTypes], handWritten: false)))
    }

    @Test("read every field the generic decoder reads", arguments: [0, 1])
    func sameValues(_ index: Int) throws {
        let (name, snapshot) = Self.snapshots[index]
        let bytes = try WireEncoder.encode(SnapshotFrame(takenAt: 1, snapshot: snapshot), handWritten: false)
        let generic = try WireDecoder.decode(SnapshotFrame.self, from: bytes, handWritten: false)
        let handWritten = try WireDecoder.decode(SnapshotFrame.self, from: bytes)
        let expected = SnapshotMirror.render(generic.snapshot)
        let decoded = SnapshotMirror.render(handWritten.snapshot)
        for (left, right) in zip(expected, decoded) where left != right {
            Issue.record("\(name) snapshot: generic \(left), hand-written \(right)")
        }
        #expect(expected.count == decoded.count)
        #expect(expected == SnapshotMirror.render(snapshot))
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
        // In an array: the root value always takes the generic decoding.
        let summary = try WireDecoder.decode([LatencySummary].self, from: try WireEncoder.encode([NewerSummary()]))
        #expect(
            summary == [
                LatencySummary(
                    count: 3, p50: 1, p90: 2, p99: 3, p999: 4, max: 5,
                    buckets: [LatencyBucket(upperBound: 1_000, count: 3)])
            ])
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

    @Test("throw on every cut and every flipped byte, or agree with the generic decoder")
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
                let generic = Result { try WireDecoder.decode(SnapshotFrame.self, from: bytes, handWritten: false) }
                let handWritten = Result { try WireDecoder.decode(SnapshotFrame.self, from: bytes) }
                switch (generic, handWritten) {
                case (.success(let left), .success(let right)):
                    #expect(
                        SnapshotMirror.render(left.snapshot) == SnapshotMirror.render(right.snapshot),
                        "byte \(index) ^ \(flip)")
                case (.failure, .failure(let error)):
                    #expect(error is WireError, "byte \(index) ^ \(flip): \(error)")
                    #expect(!"\(error)".contains("\n"))
                case (.success, .failure(let error)):
                    Issue.record("byte \(index) ^ \(flip): only the hand-written decoder refused it: \(error)")
                case (.failure(let error), .success):
                    Issue.record("byte \(index) ^ \(flip): only the generic decoder refused it: \(error)")
                }
            }
        }
    }
}
