import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}

private final class Recipient: Sendable {
    let log: Tally<String>
    init(log: Tally<String>) { self.log = log }
    func ping(_: Ping) { log.add("ping") }
    func pong(_: Pong) { log.add("pong") }
}

@Suite("Unregistering by id and by object", .blocksItsThread, .tags(.concurrency))
struct UnregisterTests {
    @Test("Unregistering by id stops that registration only")
    func byId() {
        let office = PostOffice()
        let log = Tally<String>()
        let first = office.register { (_: Ping) in log.add("first") }
        office.register { (_: Ping) in log.add("second") }
        office.unregister(first)
        office.post(Ping())
        #expect(log.all == ["second"])
    }

    @Test("Unknown and repeated ids are harmless")
    func unknownIds() {
        let office = PostOffice()
        let other = PostOffice()
        let log = Tally<String>()
        let id = office.register { (_: Ping) in log.add("ping") }
        office.unregister(RecipientId(rawValue: .max))
        other.unregister(id)
        office.post(Ping())
        office.unregister(id)
        office.unregister(id)
        office.post(Ping())
        #expect(log.all == ["ping"])
    }

    @Test("Unregistering an object removes all of its method registrations and leaves blocks alone")
    func byObject() {
        let office = PostOffice()
        let log = Tally<String>()
        let recipient = Recipient(log: log)
        let bystander = Recipient(log: log)
        office.register(recipient, Recipient.ping)
        office.register(recipient, Recipient.pong)
        office.register(bystander, Recipient.ping)
        office.register { (_: Ping) in log.add("block") }
        office.unregister(recipient)
        office.post(Ping())
        office.post(Pong())
        #expect(log.all == ["ping", "block"])
        #expect(office.recipientCount == 2)
    }

    @Test("Registration ids are unique across threads: 8 x 10,000 registrations give 80,000 distinct ids")
    func uniqueIds() {
        let office = PostOffice()
        let ids = Tally<RecipientId>()
        #expect(
            concurrently(8) { _ in
                for _ in 0..<10_000 { ids.add(office.register { (_: Ping) in }) }
            })
        #expect(Set(ids.all).count == 80_000)
        #expect(office.recipientCount(of: Ping.self) == 80_000)
    }

    @Test("Ids are unique across post offices and grow within each, across the blocks each office takes")
    func idsAcrossOffices() {
        // Each office takes ids from the process in blocks of 1,024; 3,000 registrations in each of 4 offices, from
        // 4 threads at once, cross several blocks.
        let offices = (0..<4).map { _ in PostOffice() }
        let ids = offices.map { _ in Tally<RecipientId>() }
        #expect(
            concurrently(4) { thread in
                for _ in 0..<3_000 { ids[thread].add(offices[thread].register { (_: Ping) in }) }
            })
        let all = ids.flatMap(\.all)
        #expect(Set(all).count == 12_000)
        #expect(!all.contains(RecipientId(rawValue: 0)))
        for office in ids { #expect(office.all == office.all.sorted()) }
        for (office, officeIds) in zip(offices, ids) {
            #expect(office.recipients(of: Ping.self).map(\.id) == officeIds.all)
        }
    }

    @Test("After unregister returns, no later post reaches the recipient, even queued deliveries already scheduled")
    func noDeliveryAfterUnregister() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queue = DispatchQueue(label: "held")
        let gate = DispatchSemaphore(value: 0)
        let log = Tally<String>()
        let id = office.register(queue: queue) { (_: Ping) in log.add("queued") }
        queue.async { gate.wait() }
        office.post(Ping())  // in flight: scheduled, not yet run
        office.unregister(id)
        office.post(Ping())  // starts after unregister returned
        gate.signal()
        queue.sync {}
        #expect(log.all.isEmpty)
        #expect(tap.skipped.map(\.reason) == [.unregistered])
    }

    @Test("Unregistering from another thread while posts run: nothing is delivered after unregister returns")
    func concurrentUnregister() {
        let office = PostOffice()
        let delivered = Tally<Int>()
        let unregistered = Locked(false)
        let lateDeliveries = Tally<Int>()
        let id = office.register { (_: Ping) in
            // A delivery that began after unregister returned would see the flag set before it started.
            if unregistered.withLock({ $0 }) { lateDeliveries.add(1) }
            delivered.add(1)
        }
        let posting = Locked(true)
        let finished = concurrently(2) { index in
            if index == 0 {
                while posting.withLock({ $0 }) { office.post(Ping()) }
            } else {
                #expect(waitUntil { delivered.count > 1_000 })
                office.unregister(id)
                unregistered.withLock { $0 = true }
                let countAtUnregister = delivered.count
                // Keep posting for a while: none of these posts may reach the recipient.
                for _ in 0..<1_000 { office.post(Ping()) }
                #expect(delivered.count == countAtUnregister)
                posting.withLock { $0 = false }
            }
        }
        #expect(finished)
        // unregister waits for a delivery running on the posting thread, and none starts once it returned.
        #expect(lateDeliveries.count == 0)
    }
}
