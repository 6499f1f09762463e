import Dispatch
import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}
private final class Sender {}
private final class Other {}

private final class Recipient: Sendable {
    func receive(_: Ping) {}
}

/// A batching tap that keeps every batch and every event it is sent.
private final class RecordingBatchTap: DeliveryBatchTap {
    struct Batch {
        let posting: Posting
        let runs: [HandlerRun]
        let deliveries: [Delivery]
        let completesPost: Bool
    }

    private let batchLog = Locked<[Batch]>([])
    let events = RecordingTap()
    private let timed: Bool

    init(timed: Bool = true) {
        self.timed = timed
    }

    var wantsTimings: Bool { timed }

    func receive(_ event: TapEvent) {
        events.receive(event)
    }

    func receive(_ batch: borrowing DeliveryBatch) {
        let runs = (0..<batch.count).map { batch[$0] }
        let deliveries = (0..<batch.count).map { batch.delivery(at: $0) }
        let copy = Batch(
            posting: batch.posting, runs: runs, deliveries: deliveries, completesPost: batch.completesPost)
        batchLog.withLock { $0.append(copy) }
    }

    var batches: [Batch] { batchLog.withLock { $0 } }
}

/// The example of `DeliveryBatchTap`'s documentation, kept compiling.
private final class HandlerTimeTap: DeliveryBatchTap {
    let total = Atomic<UInt64>(0)
    func receive(_ event: TapEvent) {
        if case .delivered(let delivery) = event { total.add(delivery.duration, ordering: .relaxed) }
    }
    func receive(_ batch: borrowing DeliveryBatch) {
        var sum: UInt64 = 0
        for index in 0..<batch.count { sum += batch[index].duration }
        total.add(sum, ordering: .relaxed)
    }
}

@Suite("Batching taps", .blocksItsThread, .tags(.concurrency))
struct DeliveryBatchTapTests {
    @Test("A batching tap gets each post with its synchronous handler runs in one batch, other taps every event")
    func postAndRunsInOneBatch() throws {
        let office = PostOffice()
        let batching = RecordingBatchTap()
        let plain = RecordingTap()
        office.attach(batching)
        office.attach(plain)
        let queue = DispatchQueue(label: "batch.queue")
        let recipient = Recipient()
        let first = office.register { (_: Ping) in }
        let object = office.register(recipient, Recipient.receive)
        let queued = office.register(queue: queue) { (_: Ping) in }
        let last = office.register { (_: Ping) in }
        office.post(Ping())
        office.post(Ping())
        queue.sync {}

        // The plain tap sees everything as events, as it always did.
        #expect(plain.posted.count == 2)
        #expect(plain.delivered.count == 8)

        let batches = batching.batches
        #expect(batches.count == 2)
        #expect(batches.map(\.posting) == plain.posted)
        #expect(batches.allSatisfy { $0.completesPost })
        for batch in batches {
            #expect(batch.runs.map(\.recipient) == [first, object, last])
            #expect(batch.runs.first.map { $0.startedAt >= batch.posting.time } == true)
            #expect(zip(batch.runs, batch.runs.dropFirst()).allSatisfy { $0.finishedAt <= $1.startedAt })
            #expect(batch.runs.allSatisfy { $0.finishedAt >= $0.startedAt })
            // Each run, as an event would carry it, is the plain tap's delivery.
            let plainRuns = plain.delivered.filter { $0.postId == batch.posting.postId && $0.queueLabel == nil }
            #expect(batch.deliveries == plainRuns)
        }

        // The batching tap is sent no post and no synchronous delivery as an event; queued deliveries it is.
        #expect(batching.events.posted.isEmpty)
        #expect(batching.events.delivered.map(\.recipient) == [queued, queued])
        #expect(batching.events.delivered.allSatisfy { $0.queueLabel == "batch.queue" })
        #expect(batching.events.registered.count == 4)
        withExtendedLifetime(recipient) {}
    }

    @Test("A post to more recipients than a batch holds is handed over in several batches; the last completes it")
    func largePostInSeveralBatches() {
        let office = PostOffice()
        let tap = RecordingBatchTap()
        office.attach(tap)
        let count = 2 * DeliveryBatch.capacity + 6
        let ids = (0..<count).map { _ in office.register { (_: Ping) in } }
        office.post(Ping())

        let batches = tap.batches
        #expect(batches.map(\.runs.count) == [DeliveryBatch.capacity, DeliveryBatch.capacity, 6])
        #expect(batches.map(\.completesPost) == [false, false, true])
        #expect(Set(batches.map(\.posting.postId)).count == 1)
        #expect(batches.flatMap(\.runs).map(\.recipient) == ids)
    }

    @Test("A post without synchronous recipients completes in an empty batch")
    func emptyBatch() {
        let office = PostOffice()
        let tap = RecordingBatchTap()
        office.attach(tap)
        office.post(Ping())
        let queue = DispatchQueue(label: "only.queued")
        office.register(queue: queue) { (_: Pong) in }
        office.post(Pong())
        queue.sync {}

        let batches = tap.batches
        #expect(batches.map(\.posting.mailType) == [TypeIdentity(Ping.self), TypeIdentity(Pong.self)])
        #expect(batches.map(\.posting.matched) == [0, 1])
        #expect(batches.allSatisfy { $0.runs.isEmpty && $0.completesPost })
        #expect(tap.events.delivered.count == 1)
    }

    @Test("A post made by a handler is handed over first, and every run is reported once")
    func nestedPosts() {
        let office = PostOffice()
        let tap = RecordingBatchTap()
        office.attach(tap)
        let outer = office.register { [weak office] (_: Ping) in office?.post(Pong()) }
        let inner = office.register { (_: Pong) in }
        office.post(Ping())

        let batches = tap.batches
        #expect(batches.map(\.posting.mailType) == [TypeIdentity(Pong.self), TypeIdentity(Ping.self)])
        #expect(batches.map { $0.runs.map(\.recipient) } == [[inner], [outer]])
        #expect(batches[1].runs[0].finishedAt >= batches[0].runs[0].finishedAt)
    }

    @Test("Skips and prunes still arrive as events, when they happen")
    func skipsAndPrunes() {
        let office = PostOffice()
        let tap = RecordingBatchTap()
        office.attach(tap)
        var recipient: Recipient? = Recipient()
        office.register(recipient!, Recipient.receive)
        office.register { (_: Ping, _: Sender) in }
        recipient = nil
        office.post(Ping(), sender: Other())

        #expect(tap.events.skipped.map(\.reason) == [.senderMismatch])
        #expect(tap.events.pruned.map(\.reason) == [.recipientReleased])
        #expect(tap.batches.map(\.runs.count) == [0])
    }

    @Test("Without a tap that reads times, runs carry none")
    func untimed() {
        let office = PostOffice()
        let tap = RecordingBatchTap(timed: false)
        office.attach(tap)
        office.register { (_: Ping) in }
        office.post(Ping())
        let batch = tap.batches.first
        #expect(batch?.posting.time == 0)
        #expect(batch?.runs.map(\.startedAt) == [0])
        #expect(batch?.runs.map(\.finishedAt) == [0])
    }

    @Test("The documentation's example adds up every handler run, batched or queued")
    func handlerTimeExample() {
        let office = PostOffice()
        let tap = HandlerTimeTap()
        let check = RecordingTap()
        office.attach(tap)
        office.attach(check)
        let queue = DispatchQueue(label: "example.queue")
        office.register { (_: Ping) in spin(nanoseconds: 50_000) }
        office.register(queue: queue) { (_: Ping) in spin(nanoseconds: 50_000) }
        office.post(Ping())
        queue.sync {}
        #expect(waitUntil { check.delivered.count == 2 })
        #expect(tap.total.load(ordering: .relaxed) == check.delivered.reduce(0) { $0 + $1.duration })
        #expect(tap.total.load(ordering: .relaxed) >= 100_000)
    }
}
