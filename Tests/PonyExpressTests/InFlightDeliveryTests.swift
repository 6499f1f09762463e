import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Ping: Mail {}

private final class Sender: Sendable {}

/// The contract for posts already under way when `unregister` returns on another thread:
/// - a recipient whose turn in that post has not come is skipped, and the tap reports the skip;
/// - a handler already running on another thread runs to its end, and `unregister` returns after it;
/// - no handler starts after `unregister` returned, whether its post began before or after.
@Suite("Posts in flight while another thread unregisters", .blocksItsThread, .tags(.concurrency))
struct InFlightDeliveryTests {
    @Test("A post in flight skips a recipient unregistered on another thread before its turn, and says so")
    func skippedBeforeItsTurn() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let log = Tally<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        office.register { (_: Ping) in
            log.add("first")
            entered.signal()
            release.wait()
        }
        let victim = office.register { (_: Ping) in log.add("victim") }
        let posted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            office.post(Ping())
            posted.signal()
        }
        #expect(entered.wait(timeout: .now() + 5) == .success)
        // The post is in flight, inside the first handler: unregistering the victim, which is not running, does not
        // wait for that handler.
        #expect(finishes(within: 5) { office.unregister(victim) })
        release.signal()
        #expect(posted.wait(timeout: .now() + 5) == .success)
        #expect(log.all == ["first"])
        let skip = try #require(tap.skipped.first)
        #expect(tap.skipped.count == 1)
        #expect(skip.recipient == victim)
        #expect(skip.reason == .unregistered)
        #expect(skip.postId == tap.posted.first?.postId)
    }

    @Test("unregister on another thread waits for a running handler to end; later posts do not reach it")
    func unregisterWaitsForRunningHandler() {
        let office = PostOffice()
        let log = Tally<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let id = office.register { (_: Ping) in
            log.add("start")
            entered.signal()
            release.wait()
            log.add("end")
        }
        let posted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            office.post(Ping())
            posted.signal()
        }
        #expect(entered.wait(timeout: .now() + 5) == .success)
        let returned = Tally<Bool>()
        DispatchQueue.global().async {
            office.unregister(id)
            returned.add(log.all == ["start", "end"])
        }
        // Once the registration is gone, unregister is waiting: it does not return while the handler runs.
        #expect(waitUntil { office.recipientCount == 0 })
        #expect(returned.count == 0)
        release.signal()
        #expect(waitUntil { returned.count == 1 })
        #expect(returned.all == [true], "unregister returned before the running handler ended")
        #expect(posted.wait(timeout: .now() + 5) == .success)
        office.post(Ping())
        #expect(log.all == ["start", "end"])
        #expect(office.recipientCount == 0)
    }

    @Test("Posts from 8 threads racing one unregister: each post delivers or skips, none after unregister returns")
    func racingUnregister() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let delivered = Tally<Int>()
        let returned = Locked(false)
        let late = Tally<Int>()
        let id = office.register { (_: Ping) in
            if returned.withLock({ $0 }) { late.add(1) }
            delivered.add(1)
        }
        let finished = concurrently(9) { index in
            if index < 8 {
                for _ in 0..<2_000 { office.post(Ping()) }
            } else {
                #expect(waitUntil { delivered.count >= 100 })
                office.unregister(id)
                returned.withLock { $0 = true }
            }
        }
        #expect(finished)
        // Every post matched the recipient or came after it was gone; each that matched it delivered or skipped.
        let matched = tap.posted.reduce(0) { $0 + $1.matched }
        #expect(matched == tap.delivered.count + tap.skipped.count)
        #expect(tap.delivered.count == delivered.count)
        #expect(tap.skipped.allSatisfy { $0.reason == .unregistered })
        // No handler starts once unregister returned.
        #expect(late.count == 0)
    }

    @Test("An exact sender released while its mail is queued: that mail arrives, the sender is freed, then pruned")
    func exactSenderReleasedWhileQueued() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queue = DispatchQueue(label: "held")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let log = Tally<Bool>()
        var sender: Sender? = Sender()
        weak let weakSender = sender
        office.register(queue: queue, sender: sender!) { (_: Ping, from: Sender) in log.add(from === weakSender) }
        office.post(Ping(), sender: sender)
        sender = nil
        gate.signal()
        #expect(waitUntil { log.count == 1 })
        #expect(log.all == [true])
        // The queued mail held its sender only until delivered.
        queue.sync {}
        #expect(waitUntil { weakSender == nil })
        office.post(Ping())
        #expect(tap.pruned.map(\.reason) == [.senderReleased])
        #expect(office.recipientCount == 0)
        #expect(log.count == 1)
    }
}
