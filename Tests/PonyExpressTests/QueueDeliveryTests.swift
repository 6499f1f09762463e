import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Numbered: Mail { var poster = 0, number = 0 }

private let queueKey = DispatchSpecificKey<String>()

@Suite("Queues: synchronous and queued delivery", .blocksItsThread, .tags(.concurrency))
struct QueueDeliveryTests {
    @Test("Without a queue, delivery is synchronous on the posting thread, before post returns")
    func synchronous() {
        let office = PostOffice()
        let postingQueue = DispatchQueue(label: "poster")
        postingQueue.setSpecific(key: queueKey, value: "poster")
        let log = Tally<String>()
        office.register { (_: Numbered) in log.add(DispatchQueue.getSpecific(key: queueKey) ?? "none") }
        postingQueue.sync {
            office.post(Numbered())
            log.add("returned")
        }
        #expect(log.all == ["poster", "returned"])
    }

    @Test("With a queue, delivery is asynchronous on that queue")
    func queued() {
        let office = PostOffice()
        let queue = DispatchQueue(label: "recipient")
        queue.setSpecific(key: queueKey, value: "recipient")
        let log = Tally<String>()
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }  // hold the queue so that delivery cannot happen before post returns
        office.register(queue: queue) { (_: Numbered) in log.add(DispatchQueue.getSpecific(key: queueKey) ?? "none") }
        office.post(Numbered())
        log.add("returned")
        gate.signal()
        #expect(waitUntil { log.count == 2 })
        #expect(log.all == ["returned", "recipient"])
    }

    @Test("100,000 posts to a serial queue arrive in order")
    func serialOrder() {
        let office = PostOffice()
        let queue = DispatchQueue(label: "serial")
        let log = Tally<Int>()
        office.register(queue: queue) { (mail: Numbered) in log.add(mail.number) }
        for number in 0..<100_000 { office.post(Numbered(number: number)) }
        #expect(waitUntil(timeout: 30) { log.count == 100_000 })
        #expect(log.all == Array(0..<100_000))
    }

    @Test("8 posters x 10,000 to one serial queue keep per-poster order")
    func perPosterOrder() {
        let office = PostOffice()
        let queue = DispatchQueue(label: "serial")
        let log = Tally<Numbered>()
        office.register(queue: queue) { (mail: Numbered) in log.add(mail) }
        #expect(
            concurrently(8) { poster in
                for number in 0..<10_000 { office.post(Numbered(poster: poster, number: number)) }
            })
        #expect(waitUntil(timeout: 30) { log.count == 80_000 })
        let byPoster = Dictionary(grouping: log.all, by: \.poster)
        for poster in 0..<8 {
            #expect(byPoster[poster]?.map(\.number) == Array(0..<10_000))
        }
    }

    @Test("A concurrent queue receives exactly the posted set")
    func concurrentQueue() {
        let office = PostOffice()
        let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let log = Tally<Int>()
        office.register(queue: queue) { (mail: Numbered) in log.add(mail.number) }
        for number in 0..<20_000 { office.post(Numbered(number: number)) }
        #expect(waitUntil(timeout: 30) { log.count == 20_000 })
        #expect(log.all.sorted() == Array(0..<20_000))
    }

    @Test("Mixed synchronous and queued recipients: deliveries equal the tap's count")
    func mixedMatchesTap() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let log = Tally<Int>()
        let queues = (0..<3).map { DispatchQueue(label: "q\($0)") }
        office.register { (mail: Numbered) in log.add(mail.number) }
        for queue in queues { office.register(queue: queue) { (mail: Numbered) in log.add(mail.number) } }
        for number in 0..<1_000 { office.post(Numbered(number: number)) }
        #expect(waitUntil(timeout: 30) { log.count == 4_000 })
        #expect(waitUntil { tap.delivered.count == 4_000 })
        let queued = tap.delivered.filter { $0.queueLabel != nil }
        #expect(queued.count == 3_000)
        #expect(Set(queued.compactMap(\.queueLabel)) == ["q0", "q1", "q2"])
    }

    @Test("A recipient released while its delivery is queued is skipped, and the tap reports the prune")
    func releasedWhileQueued() {
        final class Recipient: Sendable {
            let log: Tally<Int>
            init(log: Tally<Int>) { self.log = log }
            func receive(_ mail: Numbered) { log.add(mail.number) }
        }
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queue = DispatchQueue(label: "held")
        let gate = DispatchSemaphore(value: 0)
        let log = Tally<Int>()
        var recipient: Recipient? = Recipient(log: log)
        office.register(queue: queue, recipient!, Recipient.receive)
        queue.async { gate.wait() }
        office.post(Numbered(number: 1))
        recipient = nil
        gate.signal()
        #expect(waitUntil { tap.pruned.count == 1 })
        queue.sync {}
        #expect(log.all.isEmpty)
        #expect(tap.delivered.isEmpty)
        #expect(tap.pruned.first?.reason == .recipientReleased)
    }

    @Test("A post office released while 1,000 deliveries are queued: no crash, everything freed when they drain")
    func officeReleasedWithQueuedDeliveries() {
        final class Witness: Sendable {
            let freed: Tally<Int>
            init(_ freed: Tally<Int>) { self.freed = freed }
            deinit { freed.add(1) }
        }
        let freed = Tally<Int>()
        let delivered = Tally<Int>()
        let queue = DispatchQueue(label: "draining")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        var office: PostOffice? = PostOffice()
        weak let weakOffice = office
        var witness: Witness? = Witness(freed)
        office!.register(queue: queue) { [witness] (mail: Numbered) in
            _ = witness
            delivered.add(mail.number)
        }
        witness = nil
        for number in 0..<1_000 { office!.post(Numbered(number: number)) }
        office = nil
        #expect(weakOffice == nil)
        gate.signal()
        #expect(waitUntil { delivered.count == 1_000 })
        #expect(waitUntil { freed.count == 1 })
    }
}
