import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Numbered: Mail { var number = 0 }

private final class Recipient: Sendable {
    let log: Tally<Int>
    init(log: Tally<Int>) { self.log = log }
    func receive(_ mail: Numbered) { log.add(mail.number) }
}

/// Recipients released while their deliveries wait on a queue, and the delivery accounting identity: every
/// recipient a post matched is, in the end, delivered to, skipped or pruned, and the tap says which.
@Suite("Recipients released while deliveries are queued", .blocksItsThread, .tags(.concurrency))
struct QueuedReleaseTests {
    /// Holds `queue` until the returned semaphore is signalled.
    private func hold(_ queue: DispatchQueue) -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        return gate
    }

    @Test("1,000 deliveries queued on a serial queue for a recipient that dies: none run, one prune, 999 skips")
    func serialQueue() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queue = DispatchQueue(label: "serial")
        let log = Tally<Int>()
        var recipient: Recipient? = Recipient(log: log)
        let id = office.register(queue: queue, recipient!, Recipient.receive)
        let gate = hold(queue)
        for number in 0..<1_000 { office.post(Numbered(number: number)) }
        recipient = nil
        gate.signal()
        queue.sync {}
        #expect(log.count == 0)
        #expect(tap.delivered.isEmpty)
        #expect(tap.pruned.map(\.recipient.id) == [id])
        #expect(tap.pruned.first?.reason == .recipientReleased)
        #expect(tap.skipped.count == 999)
        #expect(tap.skipped.allSatisfy { $0.recipient == id })
        #expect(office.recipientCount == 0)
    }

    @Test("Mixed recipients, some dying with deliveries queued: posted x matched = delivered + skipped + pruned")
    func accountingIdentity() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queues = (0..<3).map { DispatchQueue(label: "serial \($0)") }
        let log = Tally<Int>()
        var doomed: [Recipient] = (0..<3).map { _ in Recipient(log: log) }
        let survivor = Recipient(log: log)
        office.register(survivor, Recipient.receive)
        office.register { (mail: Numbered) in log.add(mail.number) }
        for (queue, recipient) in zip(queues, doomed) { office.register(queue: queue, recipient, Recipient.receive) }
        office.register(queue: queues[0]) { (mail: Numbered) in log.add(mail.number) }
        let gates = queues.map(hold)
        for number in 0..<500 { office.post(Numbered(number: number)) }
        doomed.removeAll()
        for gate in gates { gate.signal() }
        for queue in queues { queue.sync {} }
        let matched = tap.posted.reduce(0) { $0 + $1.matched }
        #expect(matched == 500 * 6)
        #expect(tap.delivered.count == 500 * 3)
        #expect(log.count == 500 * 3)
        #expect(tap.pruned.count == 3)
        #expect(tap.skipped.count == 500 * 3 - 3)
        #expect(matched == tap.delivered.count + tap.skipped.count + tap.pruned.count)
    }

    @Test("The identity holds when deliveries to a dead recipient race on a concurrent queue")
    func concurrentQueue() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let log = Tally<Int>()
        var recipient: Recipient? = Recipient(log: log)
        office.register(queue: queue, recipient!, Recipient.receive)
        let gate = DispatchSemaphore(value: 0)
        queue.async(flags: .barrier) { gate.wait() }
        for number in 0..<2_000 { office.post(Numbered(number: number)) }
        recipient = nil
        gate.signal()
        queue.sync(flags: .barrier) {}
        #expect(log.count == 0)
        #expect(tap.pruned.count == 1)
        #expect(2_000 == tap.delivered.count + tap.skipped.count + tap.pruned.count)
    }

    @Test("The identity holds when 8 threads posting meet the same dead recipients")
    func postersMeetDeadRecipients() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let log = Tally<Int>()
        var recipients = (0..<1_000).map { _ in Recipient(log: log) }
        for recipient in recipients { office.register(recipient, Recipient.receive) }
        recipients.removeAll()
        #expect(concurrently(8) { _ in office.post(Numbered()) })
        let matched = tap.posted.reduce(0) { $0 + $1.matched }
        #expect(log.count == 0)
        #expect(tap.pruned.count == 1_000)
        #expect(matched == tap.delivered.count + tap.skipped.count + tap.pruned.count)
    }
}
