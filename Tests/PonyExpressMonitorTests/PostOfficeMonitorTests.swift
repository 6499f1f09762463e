import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}
private final class Sender {}

private let ping = TypeIdentity(Ping.self)
private let pong = TypeIdentity(Pong.self)

@Suite(.blocksItsThread, .tags(.concurrency)) struct PostOfficeMonitorTests {
    @Test func countsPostsDeliveriesAndSkipsExactly() {
        // Every post timed, so that the histograms count every run too.
        let (office, monitor, clock) = watchedOffice { $0.handlerTimingInterval = 1 }
        office.register { (_: Ping) in }
        office.register { (_: Ping, _: Sender) in }
        office.register { (_: Pong) in }
        for _ in 0..<100 { office.post(Ping()) }
        for _ in 0..<30 { office.post(Pong()) }
        let sender = Sender()
        for _ in 0..<10 { office.post(Ping(), sender: sender) }
        clock.advance(seconds: 1)

        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == 140)
        #expect(snapshot.totals.deliveries == 100 + 30 + 20)
        #expect(snapshot.totals.skipped == 100)
        #expect(snapshot.totals.recipientsAlive == 3)
        let pings = snapshot.stats(of: ping)
        #expect(pings?.posts == 110)
        #expect(pings?.deliveries == 120)
        #expect(pings?.skipped == 100)
        #expect(pings?.handlerLatency.count == 120)
        #expect(pings?.queueWait.count == 0)
        #expect(snapshot.stats(of: pong)?.deliveries == 30)
        #expect(snapshot.mailTypes.map(\.mailType) == [ping, pong])
        #expect(snapshot.handlerLatency.count == 150)
    }

    @Test func ratesUseCompletedSecondsOfTheManualClock() {
        let office = PostOffice()
        let clock = ManualClock(start: 5_000_000_000)
        var settings = MonitorSettings()
        settings.longWindow = 4
        let monitor = PostOfficeMonitor(settings: settings, clock: clock)
        monitor.attach(to: office)
        office.register { (_: Ping) in }
        for _ in 0..<100 { office.post(Ping()) }
        clock.advance(seconds: 0.5)
        #expect(monitor.snapshot().totals.postsPerSecond == 0, "no second has completed yet")
        for _ in 0..<20 { office.post(Ping()) }
        clock.advance(seconds: 0.5)

        var snapshot = monitor.snapshot()
        #expect(snapshot.uptime == 1_000_000_000)
        #expect(snapshot.totals.postsPerSecond == 120)
        #expect(snapshot.stats(of: ping)?.postsPerSecondLong == 120)
        #expect(snapshot.totals.postsHistory == [120])

        for _ in 0..<40 { office.post(Ping()) }
        clock.advance(seconds: 1)
        clock.advance(seconds: 1)
        snapshot = monitor.snapshot()
        #expect(snapshot.totals.postsHistory == [120, 40, 0])
        #expect(snapshot.totals.deliveriesHistory == [120, 40, 0])
        #expect(snapshot.totals.postsPerSecond == 0)
        let stats = snapshot.stats(of: ping)
        #expect(stats?.postsPerSecondLong == 160.0 / 3)
        #expect(stats?.deliveriesPerSecond == 0)
        #expect(stats?.history == [120, 40, 0])

        clock.advance(seconds: 2)
        snapshot = monitor.snapshot()
        #expect(snapshot.stats(of: ping)?.postsPerSecondLong == 40.0 / 4, "the long window has moved past second 0")
    }

    @Test func historyKeepsTheConfiguredNumberOfSeconds() {
        let (office, monitor, clock) = watchedOffice { $0.historyLength = 5 }
        for second in 0..<8 {
            for _ in 0..<second { office.post(Ping()) }
            clock.advance(seconds: 1)
        }
        #expect(monitor.snapshot().totals.postsHistory == [3, 4, 5, 6, 7])
    }

    @Test func detachStopsAllAccounting() {
        let (office, monitor, clock) = watchedOffice()
        let id = office.register { (_: Ping) in }
        office.post(Ping())
        monitor.detach()
        #expect(!monitor.isWatching)
        office.post(Ping())
        office.register { (_: Pong) in }
        office.unregister(id)
        office.post(Pong())
        clock.advance(seconds: 1)

        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == 1)
        #expect(snapshot.totals.deliveries == 1)
        #expect(snapshot.totals.recipientsAlive == 1)
        #expect(snapshot.stats(of: pong) == nil)
    }

    @Test func attachSeedsTheRecipientsAlreadyRegistered() {
        let office = PostOffice()
        let recipient = TestRecipient()
        office.register(Ping.self, recipient, TestRecipient.receive)
        office.register(queue: DispatchQueue(label: "seeded"), { (_: Ping) in })
        let (_, monitor, _) = watching(office)

        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.recipientsAlive == 2)
        let counts = snapshot.stats(of: ping)?.recipients
        #expect(counts?.total == 2)
        #expect(counts?.objects == 1)
        #expect(counts?.blocks == 1)
        #expect(counts?.byQueue == ["sync": 1, "seeded": 1])
        #expect(snapshot.recipients(of: ping).map(\.info) == office.recipients())
    }

    @Test func attributesDeliveriesToRecipients() {
        let (office, monitor, _) = watchedOffice()
        let first = office.register { (_: Ping) in }
        let second = office.register { (_: Ping, _: Sender) in }
        for _ in 0..<7 { office.post(Ping()) }
        let sender = Sender()
        for _ in 0..<3 { office.post(Ping(), sender: sender) }

        let recipients = monitor.snapshot().recipients(of: ping)
        #expect(recipients.map(\.info.id) == [first, second])
        #expect(recipients.map(\.deliveries) == [10, 3])
        #expect(recipients.allSatisfy { !$0.isDuplicate && $0.handlerLatency == nil })
        #expect(recipients[0].handlerTime >= recipients[0].maxHandlerTime)
    }

    @Test func countsEveryRunOfLargePostsOnceWhetherBatchedOrQueued() {
        let office = PostOffice()
        // The system clock: seconds come from the times the batches carry.
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        let check = RecordingTap()
        office.attach(check)
        let queue = DispatchQueue(label: "monitor.batches")
        let synchronous = DeliveryBatch.capacity + 8
        let ids = (0..<synchronous).map { _ in office.register { (_: Ping) in } }
        let queued = office.register(queue: queue) { (_: Ping) in }
        for _ in 0..<50 { office.post(Ping()) }
        queue.sync {}
        #expect(waitUntil { check.delivered.count == 50 * (synchronous + 1) })

        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == 50)
        #expect(snapshot.totals.deliveries == UInt64(50 * (synchronous + 1)))
        let pings = snapshot.stats(of: ping)
        #expect(pings?.handlerLatency.count == UInt64(50 * (synchronous + 1)))
        #expect(pings?.queueWait.count == 50)
        let recipients = snapshot.recipients(of: ping)
        #expect(recipients.map(\.info.id) == ids + [queued])
        #expect(recipients.allSatisfy { $0.deliveries == 50 })
        let slowest = check.delivered.map(\.duration).max() ?? 0
        #expect(recipients.allSatisfy { $0.maxHandlerTime <= slowest })
    }

    @Test func measuresQueueWaitForQueuedDeliveriesOnly() {
        let (office, monitor, _) = watchedOffice { $0.handlerTimingInterval = 1 }
        let queue = DispatchQueue(label: "monitor.tests.wait")
        let delivered = TestRecipient()
        office.register(queue: queue, Ping.self, delivered, TestRecipient.receive)
        office.register { (_: Ping) in }
        queue.suspend()
        for _ in 0..<5 { office.post(Ping()) }
        spin(nanoseconds: 3_000_000)
        queue.resume()
        #expect(waitUntil { monitor.snapshot().totals.deliveries == 10 })

        let snapshot = monitor.snapshot()
        #expect(snapshot.queueWait.count == 5)
        #expect(snapshot.queueWait.p50 >= 2_900_000)
        #expect(snapshot.handlerLatency.count == 10)
        let queues = snapshot.queues
        #expect(queues.map(\.label) == ["monitor.tests.wait"])
        #expect(queues.first?.deliveries == 5)
        #expect((queues.first?.meanWait ?? 0) >= 2_900_000)
        #expect(snapshot.stats(of: ping)?.recipients.byQueue == ["sync": 1, "monitor.tests.wait": 1])
    }

    @Test func handlerLatencyReflectsHandlerTime() {
        let (office, monitor, _) = watchedOffice()
        office.register { (_: Ping) in spin(nanoseconds: 2_000_000) }
        for _ in 0..<5 { office.post(Ping()) }
        let latency = monitor.snapshot().handlerLatency
        #expect(latency.count == 5)
        #expect(latency.p50 >= 1_980_000)
        #expect(latency.max >= latency.p99)
        #expect(latency.buckets.reduce(0) { $0 + $1.count } == 5)
    }

    @Test func keepsABoundedLogOfPrunesNewestFirst() {
        let (office, monitor, clock) = watchedOffice { $0.pruneLogCapacity = 3 }
        for _ in 0..<5 {
            let recipient = TestRecipient()
            office.register(Ping.self, recipient, TestRecipient.receive)
        }
        clock.advance(seconds: 2)
        #expect(office.prune() == 5)
        clock.advance(seconds: 1)

        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.pruned == 5)
        #expect(snapshot.totals.recipientsAlive == 0)
        #expect(snapshot.totals.prunesHistory == [0, 0, 5])
        #expect(snapshot.stats(of: ping)?.pruned == 5)
        #expect(snapshot.recentPrunes.count == 3)
        let record = snapshot.recentPrunes[0]
        #expect(record.recipientType == TypeIdentity(TestRecipient.self))
        #expect(record.mailType == ping)
        #expect(record.reason == .recipientReleased)
        #expect(record.site.fileID == "PonyExpressMonitorTests/PostOfficeMonitorTests.swift")
        #expect(record.time == 2_000_000_000)
        #expect(snapshot.sites.first?.pruned == 5)
    }

    @Test func countsPrunesOfRecipientsThatDiedBeforeItAttached() {
        let office = PostOffice()
        do {
            let recipient = TestRecipient()
            office.register(Ping.self, recipient, TestRecipient.receive)
        }
        let (_, monitor, clock) = watching(office)
        clock.advance(seconds: 1)
        // The snapshot's check for released recipients prunes it, though the monitor never saw it registered.
        let snapshot = monitor.snapshot()
        #expect(office.prune() == 0)
        #expect(snapshot.totals.pruned == 1)
        #expect(snapshot.totals.recipientsAlive == 0)
        #expect(snapshot.recentPrunes.map(\.mailType) == [ping])
        #expect(snapshot.sites.map(\.pruned) == [1])
        #expect(snapshot.sites.map(\.live) == [0])
    }

    @Test func tracksRegistrationSites() {
        let (office, monitor, clock) = watchedOffice()
        var ids: [RecipientId] = []
        for _ in 0..<4 {
            ids.append(office.register({ (_: Ping) in }, file: "App/Feed.swift", line: 10))
            clock.advance(seconds: 1)
        }
        office.unregister(ids[0])
        office.register({ (_: Pong) in }, file: "App/Cart.swift", line: 3)
        clock.advance(seconds: 1)

        let sites = monitor.snapshot().sites
        #expect(sites.count == 2)
        let feed = sites[0]
        #expect(feed.site == SourceLocation(fileID: "App/Feed.swift", line: 10))
        #expect(feed.mailType == ping)
        #expect((feed.live, feed.liveBlocks, feed.registered, feed.unregistered, feed.pruned) == (3, 3, 4, 1, 0))
        #expect(feed.history == [1, 2, 3, 4, 3])
        #expect(sites[1].site?.fileID == "App/Cart.swift")
        #expect(sites[1].history == [0, 0, 0, 0, 1])
    }

    @Test func capsTheSiteTableWithAnOtherRow() {
        let (office, monitor, _) = watchedOffice { $0.siteCapacity = 4 }
        for line in 1...10 { office.register({ (_: Ping) in }, file: "App/Many.swift", line: UInt(line)) }

        let sites = monitor.snapshot().sites
        #expect(sites.count == 5)
        #expect(sites.filter { $0.site == nil }.map(\.live) == [6])
        #expect(sites.reduce(0) { $0 + $1.live } == 10)
    }

    @Test func givesTheRowOfASiteWithNoLiveRegistrationToANewSite() {
        let (office, monitor, _) = watchedOffice { $0.siteCapacity = 2 }
        let gone = office.register({ (_: Ping) in }, file: "App/Old.swift", line: 1)
        office.register({ (_: Ping) in }, file: "App/Kept.swift", line: 1)
        office.unregister(gone)
        office.register({ (_: Ping) in }, file: "App/New.swift", line: 1)

        let sites = monitor.snapshot().sites
        #expect(Set(sites.compactMap(\.site?.fileID)) == ["App/Kept.swift", "App/New.swift"])
        #expect(sites.first { $0.site == nil }?.unregistered == 1)
    }

    @Test func countsMailTypesBeyondTheCapacityAsOther() {
        let (office, monitor, _) = watchedOffice { $0.mailTypeCapacity = 1 }
        office.post(Ping())
        office.post(Pong())
        office.post(Pong())
        let snapshot = monitor.snapshot()
        #expect(snapshot.stats(of: ping)?.posts == 1)
        #expect(snapshot.stats(of: pong) == nil)
        #expect(snapshot.stats(of: TypeIdentity(OtherMailTypes.self))?.posts == 2)
    }

    @Test func resetClearsStatisticsButKeepsLiveRecipients() {
        let (office, monitor, clock) = watchedOffice { $0.handlerTimingInterval = 1 }
        office.register { (_: Ping) in }
        for _ in 0..<10 { office.post(Ping()) }
        clock.advance(seconds: 3)
        monitor.reset()
        office.post(Ping())
        clock.advance(seconds: 1)

        let snapshot = monitor.snapshot()
        #expect(snapshot.uptime == 1_000_000_000)
        #expect(snapshot.totals.posts == 1)
        #expect(snapshot.totals.postsHistory == [1])
        #expect(snapshot.totals.recipientsAlive == 1)
        #expect(snapshot.recipients(of: ping).map(\.deliveries) == [1])
        #expect(snapshot.handlerLatency.count == 1)
    }
}
