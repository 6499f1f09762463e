import Dispatch
import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

private struct Tick: Mail {
    var value = 0
}

private final class Sender {}

private final class Watcher: Sendable {
    let log = Tally<Int>()
    func receive(_ tick: Tick) { log.add(tick.value) }
}

@Suite("Once registrations", .blocksItsThread)
struct OnceRegistrationTests {
    @Test("A once block receives one mail, then is unregistered and reported so")
    func onceBlock() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let log = Tally<Int>()
        let id = office.register(options: .once) { (tick: Tick) in log.add(tick.value) }
        #expect(office.recipients(of: Tick.self).map(\.isOnce) == [true])
        office.post(Tick(value: 1))
        office.post(Tick(value: 2))
        #expect(log.all == [1])
        #expect(office.recipientCount == 0)
        #expect(tap.registered.map(\.options) == [.once])
        #expect(tap.unregistered.map(\.id) == [id])
        #expect(tap.delivered.map(\.recipient) == [id])
    }

    @Test("A once method registration and a plain one side by side: only the once one stops")
    func onceMethod() {
        let office = PostOffice()
        let once = Watcher()
        let plain = Watcher()
        office.register(options: .once, once, Watcher.receive)
        office.register(plain, Watcher.receive)
        for value in 1...3 { office.post(Tick(value: value)) }
        #expect(once.log.all == [1])
        #expect(plain.log.all == [1, 2, 3])
        #expect(office.recipients(of: Tick.self).map(\.isOnce) == [false])
    }

    @Test("A once registration with a sender filter waits for mail it accepts")
    func onceWithSenderFilter() {
        let office = PostOffice()
        let log = Tally<Int>()
        office.register(options: .once) { (tick: Tick, _: Sender) in log.add(tick.value) }
        office.post(Tick(value: 1))
        office.post(Tick(value: 2), sender: Sender())
        office.post(Tick(value: 3), sender: Sender())
        #expect(log.all == [2])
    }

    @Test("A queued once registration delivers one of several posts already scheduled; the rest are skipped")
    func onceQueued() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queue = DispatchQueue(label: "once")
        let log = Tally<Int>()
        queue.suspend()
        let id = office.register(queue: queue, options: .once) { (tick: Tick) in log.add(tick.value) }
        for value in 1...3 { office.post(Tick(value: value)) }
        queue.resume()
        #expect(waitUntil { tap.skipped.count == 2 })
        queue.sync {}
        #expect(log.all == [1])
        #expect(tap.skipped.allSatisfy { $0.recipient == id && $0.reason == .unregistered })
        #expect(office.recipientCount == 0)
    }

    @Test("A once handler that posts its own mail type is not called again")
    func onceReentrant() {
        let office = PostOffice()
        let log = Tally<Int>()
        office.register(options: .once) { [unowned office] (tick: Tick) in
            log.add(tick.value)
            office.post(Tick(value: tick.value + 1))
        }
        office.post(Tick(value: 1))
        #expect(log.all == [1])
    }
}

@Suite("Once registrations under concurrent posts", .blocksItsThread, .tags(.concurrency))
struct OnceConcurrencyTests {
    @Test("16 threads post at once to 200 once registrations: each delivers exactly once")
    func exactlyOnce() {
        let office = PostOffice()
        let counters = (0..<200).map { _ in Counter() }
        for counter in counters { office.register(options: .once) { (_: Tick) in counter.increment() } }
        let finished = concurrently(16) { _ in
            for _ in 0..<50 { office.post(Tick()) }
        }
        #expect(finished)
        #expect(counters.allSatisfy { $0.count == 1 })
        #expect(office.recipientCount == 0)
    }

    @Test("Once registrations on queues, posted from 8 threads at once: each delivers exactly once")
    func exactlyOnceQueued() {
        let office = PostOffice()
        let delivered = Counter()
        let queues = (0..<4).map { DispatchQueue(label: "once \($0)") }
        for index in 0..<100 {
            office.register(queue: queues[index % 4], options: .once) { (_: Tick) in delivered.increment() }
        }
        #expect(concurrently(8) { _ in for _ in 0..<20 { office.post(Tick()) } })
        for queue in queues { queue.sync {} }
        #expect(delivered.count == 100)
        #expect(waitUntil { office.recipientCount == 0 })
    }

    @Test("Unregistering a once registration while threads post: once it returns, no handler starts")
    func unregisterWhilePosting() {
        let office = PostOffice()
        for _ in 0..<100 {
            let unregistered = Counter()
            let lateRuns = Counter()
            let id = office.register(options: .once) { (_: Tick) in
                if unregistered.count > 0 { lateRuns.increment() }
            }
            let finished = concurrently(3) { index in
                if index == 0 {
                    office.unregister(id)
                    unregistered.increment()
                } else {
                    office.post(Tick())
                }
            }
            #expect(finished)
            #expect(lateRuns.count == 0)
        }
        #expect(office.recipientCount == 0)
    }
}

/// Counts without a lock, so that counting does not serialise the posting threads.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .sequentiallyConsistent) }
    var count: Int { value.load(ordering: .sequentiallyConsistent) }
}
