import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private class Event: Mail, @unchecked Sendable {}
private final class Tap: Event, @unchecked Sendable {}
private final class Scroll: Event, @unchecked Sendable {}

/// The figures a snapshot gives a leak hunter or a queue watcher: per site, per posted type, per queue.
@Suite(.tags(.concurrency)) struct SnapshotEvidenceTests {
    // MARK: - Sites

    @Test func aSiteShowsItsGrowthOldestAgeLifetimesAndDeliveries() throws {
        let (office, monitor, clock) = watchedOffice()
        var kept: [TestRecipient] = []
        // One registration kept each second for 15 s; at a second site, one that lives 2 s, every second.
        var brief: [RecipientId] = []
        for second in 0..<15 {
            let recipient = TestRecipient()
            kept.append(recipient)
            office.register(Ping.self, recipient, TestRecipient.receive)
            brief.append(office.register { (_: Ping) in })
            if second >= 2 { office.unregister(brief[second - 2]) }
            office.post(Ping())
            clock.advance(seconds: 1)
        }

        let sites = monitor.snapshot().sites
        let growing = try #require(sites.first { $0.kind == .object(TypeIdentity(TestRecipient.self)) })
        #expect(growing.live == 15)
        #expect(growing.growthLast10Seconds == 10)
        #expect(growing.growthLastMinute == 15, "since the monitor started watching")
        #expect(growing.oldestAge == 15_000_000_000)
        #expect(growing.lifetimes == .none)
        #expect(growing.mailType == TypeIdentity(Ping.self))
        #expect(growing.lastRegistration?.id == office.recipients().filter { $0.kind != .block }.last?.id)
        // The registration of second n received the posts of seconds n...14.
        #expect(growing.deliveries == (1...15).reduce(0, +))

        let churning = try #require(sites.first { $0.kind == .block })
        #expect(churning.live == 2)
        #expect(churning.growthLast10Seconds == 0)
        #expect(churning.oldestAge == 2_000_000_000)
        #expect(churning.lifetimes.ended == 13)
        let median = try #require(churning.lifetimes.median)
        #expect(median >= 2_000_000_000 && median <= 2_400_000_000, "a bucket bound at most 19% above 2 s")
    }

    // MARK: - Subclass mail

    @Test func subclassMailIsAttributedToTheSuperclassRecipientThatReceivedIt() throws {
        let (office, monitor, _) = watchedOffice()
        let all = office.register { (_: Event) in }
        let taps = office.register { (_: Tap) in }
        for _ in 0..<5 { office.post(Tap()) }
        for _ in 0..<3 { office.post(Scroll()) }
        office.post(Event())

        let snapshot = monitor.snapshot()
        let tap = TypeIdentity(Tap.self)
        let receivers = snapshot.receivers(of: tap)
        #expect(receivers.map(\.recipient.info.id) == [taps, all])
        #expect(receivers.map(\.isInherited) == [false, true])
        #expect(receivers.map(\.deliveries) == [5, 5])
        #expect(snapshot.stats(of: tap)?.superclasses == [TypeIdentity(Event.self)])
        #expect(snapshot.stats(of: tap)?.inheritedRecipients == 1)
        #expect(snapshot.stats(of: tap)?.recipients.total == 1)

        let scrolls = snapshot.receivers(of: TypeIdentity(Scroll.self))
        #expect(scrolls.map(\.recipient.info.id) == [all])
        #expect(scrolls.map(\.deliveries) == [3])

        let events = snapshot.receivers(of: TypeIdentity(Event.self))
        #expect(events.map(\.deliveries) == [1], "Event itself went to its own recipient once")
        let superclassRecipient = try #require(snapshot.recipients(of: TypeIdentity(Event.self)).first)
        #expect(superclassRecipient.deliveries == 9)
        #expect(superclassRecipient.deliveriesByPostedType.map(\.mailType) == [TypeIdentity(Scroll.self), tap])
    }

    // MARK: - Queues

    @Test func aQueueNamesItsWaitsItsMailTypesAndTheRecipientsThatKeepItBusy() throws {
        let (office, monitor, clock) = watchedOffice { $0.stalledQueueWait = 0.002 }
        let queue = DispatchQueue(label: "monitor.tests.evidence")
        let slow = TestRecipient()
        office.register(queue: queue, Event.self, slow, TestRecipient.receive)
        office.register(queue: queue) { (_: Ping) in }
        queue.suspend()
        for _ in 0..<4 { office.post(Tap()) }
        office.post(Ping())
        spin(nanoseconds: 3_000_000)
        queue.resume()
        #expect(waitUntil { monitor.snapshot().totals.deliveries == 5 })
        clock.advance(seconds: 1)

        let stats = try #require(monitor.snapshot().queues.first)
        #expect(stats.label == "monitor.tests.evidence")
        #expect(stats.wait.count == 5)
        #expect(stats.wait.p99 >= 3_000_000)
        #expect(stats.recentShareOverBound == 1)
        #expect(stats.recentMaxWait >= 3_000_000)
        #expect(stats.estimatedBacklog > 0)
        #expect(stats.mailTypes.map(\.mailType) == [TypeIdentity(Tap.self), TypeIdentity(Ping.self)])
        #expect(stats.mailTypes.map(\.waitsOverBound) == [4, 1])
        #expect(Set(stats.load.map(\.kind)) == [.object(TypeIdentity(TestRecipient.self)), .block])
        #expect(stats.load.map(\.deliveries).sorted() == [1, 4])
        #expect(abs(stats.load.map(\.share).reduce(0, +) - 1) < 1e-9)
    }
}
