import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private final class Sender {}
private final class Other {}

private final class Recipient: Sendable {
    func receive(_: Ping, sender: Sender) {}
}

@Suite("The delivery tap", .blocksItsThread, .tags(.concurrency))
struct DeliveryTapTests {
    @Test("A tap sees registration, post, delivery, skip and unregistration, in order and with their details")
    func eventsInOrder() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queue = DispatchQueue(label: "tap.queue")
        let recipient = Recipient()
        let objectId = office.register(recipient, Recipient.receive)
        let blockId = office.register(queue: queue) { (_: Ping) in }
        let sender = Sender()
        office.post(Ping(), sender: sender)
        queue.sync {}
        office.post(Ping(), sender: Other())
        queue.sync {}
        office.unregister(blockId)

        let registered = tap.registered
        #expect(registered.map(\.id) == [objectId, blockId])
        #expect(registered[0].kind == .object(TypeIdentity(Recipient.self)))
        #expect(registered[0].sender == .required(TypeIdentity(Sender.self)))
        #expect(registered[0].queueLabel == nil)
        #expect(registered[0].mailType == TypeIdentity(Ping.self))
        #expect(registered[0].site.fileID == "PonyExpressTests/DeliveryTapTests.swift")
        #expect(registered[1].kind == .block)
        #expect(registered[1].sender == .any)
        #expect(registered[1].queueLabel == "tap.queue")

        let posted = tap.posted
        #expect(posted.count == 2)
        #expect(posted.map(\.matched) == [2, 2])
        #expect(posted[0].senderType == TypeIdentity(Sender.self))
        #expect(posted[1].senderType == TypeIdentity(Other.self))

        let delivered = tap.delivered
        #expect(delivered.map(\.recipient) == [objectId, blockId, blockId])
        #expect(delivered.map(\.postId) == [posted[0].postId, posted[0].postId, posted[1].postId])
        #expect(delivered.map(\.queueLabel) == [nil, "tap.queue", "tap.queue"])
        #expect(delivered.allSatisfy { $0.startedAt >= $0.postedAt && $0.finishedAt >= $0.startedAt })

        #expect(tap.skipped.map(\.recipient) == [objectId])
        #expect(tap.skipped.map(\.reason) == [.senderMismatch])
        #expect(tap.unregistered.map(\.id) == [blockId])
        withExtendedLifetime(recipient) {}
    }

    @Test("A post's origin reaches the tap: local by default, relayed or bridged when the poster says so")
    func postOrigin() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let received = Tally<Int>()
        office.register { (_: Ping) in received.add(1) }
        office.post(Ping())
        office.post(Ping(), sender: Sender(), origin: .relayed)
        office.post(Ping(), sender: nil, origin: .bridged)
        #expect(received.count == 3)
        #expect(tap.posted.map(\.origin) == [.local, .relayed, .bridged])
        #expect(tap.posted[1].senderType == TypeIdentity(Sender.self))
    }

    @Test("Queue wait and handler duration are measured")
    func timings() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queue = DispatchQueue(label: "slow")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        office.register(queue: queue) { (_: Ping) in
            let start = DispatchTime.now().uptimeNanoseconds
            while DispatchTime.now().uptimeNanoseconds - start < 2_000_000 {}
        }
        office.post(Ping())
        let start = DispatchTime.now().uptimeNanoseconds
        while DispatchTime.now().uptimeNanoseconds - start < 3_000_000 {}
        gate.signal()
        #expect(waitUntil { tap.delivered.count == 1 })
        let delivery = try #require(tap.delivered.first)
        #expect(delivery.wait >= 3_000_000)
        #expect(delivery.duration >= 2_000_000)
    }

    @Test("A run's nested time is the posts it made, counted once however deep they nest; its self time the rest")
    func nestedTime() throws {
        struct Outer: Mail {}
        struct Middle: Mail {}
        struct Inner: Mail {}
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let outer = office.register { [weak office] (_: Outer) in
            spin(nanoseconds: 300_000)
            office?.post(Middle())
        }
        let middle = office.register { [weak office] (_: Middle) in
            spin(nanoseconds: 2_000_000)
            office?.post(Inner())
        }
        let inner = office.register { (_: Inner) in spin(nanoseconds: 1_000_000) }
        office.post(Outer())

        let runs = Dictionary(uniqueKeysWithValues: tap.delivered.map { ($0.recipient, $0) })
        let (o, m, i) = (try #require(runs[outer]), try #require(runs[middle]), try #require(runs[inner]))
        #expect(i.nestedTime == 0 && i.selfDuration == i.duration)
        // Each post's time holds its recipients' whole runs.
        #expect(m.nestedTime >= i.duration)
        #expect(o.nestedTime >= m.duration)
        // Counted once: were the inner post's time added again to the outer run's, the outer run's own 300 µs
        // would be gone (its self time would be 0, clipped).
        #expect(o.selfDuration >= 300_000, "outer: \(o.duration) in all, \(o.nestedTime) nested")
        #expect(m.selfDuration >= 2_000_000, "middle: \(m.duration) in all, \(m.nestedTime) nested")
        #expect(o.selfDuration + o.nestedTime == o.duration)
        // A post made outside any handler is nobody's nested time, and a later run starts from nothing.
        office.post(Inner())
        #expect(tap.delivered.last?.nestedTime == 0)
    }

    @Test("While no tap wants timings the clock is not read; once one does, every tap gets times")
    func timingsOnDemand() throws {
        final class CountingOnly: DeliveryTap {
            let recording = RecordingTap()
            var wantsTimings: Bool { false }
            func receive(_ event: TapEvent) { recording.receive(event) }
        }
        let office = PostOffice()
        let counting = CountingOnly()
        office.attach(counting)
        office.register { (_: Ping) in }
        office.post(Ping())
        let untimed = try #require(counting.recording.delivered.first)
        #expect(untimed.postedAt == 0 && untimed.startedAt == 0 && untimed.finishedAt == 0)
        #expect(counting.recording.posted.first?.time == 0)
        office.attach(RecordingTap())
        office.post(Ping())
        let timed = try #require(counting.recording.delivered.last)
        #expect(timed.postedAt > 0 && timed.finishedAt >= timed.startedAt)
    }

    @Test("Several taps; a detached tap sees nothing more")
    func attachDetach() {
        let office = PostOffice()
        let first = RecordingTap()
        let second = RecordingTap()
        office.attach(first)
        office.attach(first)
        office.attach(second)
        office.register { (_: Ping) in }
        office.post(Ping())
        office.detach(first)
        office.post(Ping())
        #expect(first.posted.count == 1)
        #expect(first.delivered.count == 1)
        #expect(second.posted.count == 2)
        #expect(second.delivered.count == 2)
    }

    @Test("A tap may call back into the post office")
    func reentrantTap() {
        let office = PostOffice()
        let counts = Tally<Int>()
        office.attach(
            ClosureTap { [weak office] event in
                if case .posted = event { counts.add(office?.recipientCount ?? -1) }
            })
        office.register { (_: Ping) in }
        #expect(finishes { office.post(Ping()) })
        #expect(counts.all == [1])
    }
}
