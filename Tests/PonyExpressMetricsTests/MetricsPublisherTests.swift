import PonyExpress
import PonyExpressMetrics
import PonyExpressMonitor
import PonyTestSupport
import Testing

/// What `MetricsPublisher` hands to swift-metrics, read back from an in-memory backend.
@Suite("the metrics publisher", .blocksItsThread, .tags(.concurrency))
struct MetricsPublisherTests {
    struct CartChanged: Mail { var items: Int }

    let parcel = TypeIdentity(SnapshotMaker.Parcel.self)
    let ping = TypeIdentity(SnapshotMaker.Ping.self)

    @Test("a monitored post office's posts, deliveries and live recipients, per mail type")
    func countsFromAMonitor() {
        let office = PostOffice()
        let monitor = PostOfficeMonitor(clock: ManualClock())
        monitor.attach(to: office)
        let ids = (0..<3).map { _ in office.register { (change: CartChanged) in _ = change.items } }
        for items in 0..<5 { office.post(CartChanged(items: items)) }
        let factory = InMemoryMetricsFactory()
        let publisher = MetricsPublisher(monitor: monitor, factory: factory)
        publisher.tick()

        #expect(factory[#"ponyexpress_posts_total{mail_type="CartChanged"}"#] == 5)
        #expect(factory[#"ponyexpress_deliveries_total{mail_type="CartChanged"}"#] == 15)
        #expect(factory[#"ponyexpress_skips_total{mail_type="CartChanged"}"#] == 0)
        #expect(factory[#"ponyexpress_prunes_total{mail_type="CartChanged"}"#] == 0)
        #expect(factory[#"ponyexpress_live_recipients{mail_type="CartChanged"}"#] == 3)
        let p50 = factory[#"ponyexpress_handler_seconds{mail_type="CartChanged",quantile="0.5"}"#]
        let max = factory[#"ponyexpress_handler_seconds{mail_type="CartChanged",quantile="1"}"#]
        #expect(p50 != nil && max != nil && p50! <= max! && max! < 10, "handler seconds: \(String(describing: max))")
        #expect(factory[#"ponyexpress_queue_wait_seconds{mail_type="CartChanged",quantile="0.5"}"#] == nil)
        #expect(factory["ponyexpress_monitor_memory_bytes"] == Double(monitor.estimatedMemoryBytes))
        for id in ids { office.unregister(id) }
        monitor.detach()
    }

    struct LogoutEvent: Mail {}
    final class Screen: Sendable {
        func logout(_: LogoutEvent) {}
    }

    @Test("live recipients of a type never posted count only the living once their screens are released")
    func liveRecipientsOfATypeNeverPosted() {
        let office = PostOffice()
        let clock = ManualClock()
        let monitor = PostOfficeMonitor(clock: clock)
        monitor.attach(to: office)
        let kept = Screen()
        office.register(kept, Screen.logout)
        var screens = (0..<500).map { _ in Screen() }
        for screen in screens { office.register(screen, Screen.logout) }
        let factory = InMemoryMetricsFactory()
        let publisher = MetricsPublisher(monitor: monitor, factory: factory)
        let live = #"ponyexpress_live_recipients{mail_type="LogoutEvent"}"#
        publisher.tick()
        screens.removeAll()
        #expect(factory[live] == 501)
        clock.advance(seconds: 1)
        publisher.tick()
        #expect(factory[live] == 1)
        #expect(factory[#"ponyexpress_prunes_total{mail_type="LogoutEvent"}"#] == 500)
        withExtendedLifetime(kept) {}
        monitor.detach()
    }

    @Test("counters grow by what the totals grew between ticks, and count from zero again after a reset")
    func countersGrowByDeltas() {
        let office = PostOffice()
        let monitor = PostOfficeMonitor(clock: ManualClock())
        monitor.attach(to: office)
        let factory = InMemoryMetricsFactory()
        let publisher = MetricsPublisher(monitor: monitor, factory: factory)
        let posts = #"ponyexpress_posts_total{mail_type="CartChanged"}"#
        for items in 0..<4 { office.post(CartChanged(items: items)) }
        publisher.tick()
        #expect(factory[posts] == 4)
        publisher.tick()
        #expect(factory[posts] == 4, "a tick with nothing new adds nothing")
        for items in 0..<3 { office.post(CartChanged(items: items)) }
        publisher.tick()
        #expect(factory[posts] == 7)
        monitor.reset()
        office.post(CartChanged(items: 1))
        publisher.tick()
        #expect(factory[posts] == 8, "after a reset the monitor counts 1, which is 1 more")
        #expect(factory.made(posts) == 1, "one counter per series, made once")
        #expect(publisher.cost.ticks == 4)
        monitor.detach()
    }

    /// A relay that reports fixed figures for one mail type.
    final class FixedRelay: RelayFigureSource {
        let figures: [TypeIdentity: RelayFigures]
        init(_ figures: [TypeIdentity: RelayFigures]) { self.figures = figures }
        func relayFigures() -> [TypeIdentity: RelayFigures] { figures }
    }

    @Test("a watched relay's figures become relay series of the shared mail type only")
    func relaySeries() {
        let office = PostOffice()
        let monitor = PostOfficeMonitor(clock: ManualClock())
        monitor.attach(to: office)
        let relay = FixedRelay([
            TypeIdentity(CartChanged.self): RelayFigures(
                sent: 7, received: 5, dropped: 2, lagSamples: 5, lagP50: 1_000_000, lagP99: 3_000_000)
        ])
        monitor.watch(relay)
        office.post(CartChanged(items: 1))
        office.post(SnapshotMaker.Ping())
        let factory = InMemoryMetricsFactory()
        MetricsPublisher(monitor: monitor, factory: factory).tick()

        #expect(factory[#"ponyexpress_relay_sent_total{mail_type="CartChanged"}"#] == 7)
        #expect(factory[#"ponyexpress_relay_received_total{mail_type="CartChanged"}"#] == 5)
        #expect(factory[#"ponyexpress_relay_dropped_total{mail_type="CartChanged"}"#] == 2)
        #expect(factory[#"ponyexpress_relay_lag_seconds{mail_type="CartChanged",quantile="0.5"}"#] == 0.001)
        #expect(factory[#"ponyexpress_relay_lag_seconds{mail_type="CartChanged",quantile="0.99"}"#] == 0.003)
        #expect(factory[#"ponyexpress_relay_sent_total{mail_type="Ping"}"#] == nil)
        monitor.detach()
    }

    @Test("percentiles are published in seconds, one series per quantile; a type's name labels it")
    func quantilesInSeconds() {
        let latency = LatencySummary(
            count: 10, p50: 1_000, p90: 20_000, p99: 2_000_000, p999: 3_000_000, max: 4_000_000_000, buckets: [])
        let snapshot = SnapshotMaker.snapshot(mailTypes: [
            SnapshotMaker.mailType(parcel, posts: 10, deliveries: 10, queueWait: latency)
        ])
        let factory = InMemoryMetricsFactory()
        MetricsPublisher(monitor: PostOfficeMonitor(), factory: factory).publish(snapshot)
        let expected: [String: Double] = ["0.5": 1e-6, "0.9": 2e-5, "0.99": 0.002, "0.999": 0.003, "1": 4]
        for (quantile, seconds) in expected {
            #expect(factory[#"ponyexpress_queue_wait_seconds{mail_type="Parcel",quantile="\#(quantile)"}"#] == seconds)
        }
        #expect(!factory.series.contains { $0.hasPrefix("ponyexpress_handler_seconds") }, "nothing recorded, no series")
    }

    @Test("sites beyond the limit are summed under site=\"other\"; a site that leaves the top loses its series")
    func sitesAreCapped() {
        let factory = InMemoryMetricsFactory()
        let publisher = MetricsPublisher(monitor: PostOfficeMonitor(), siteLimit: 2, factory: factory)
        func series(_ line: Int) -> String {
            #"ponyexpress_site_live_recipients{site="App/Screen.swift:\#(line)",mail_type="Parcel"}"#
        }
        let other = #"ponyexpress_site_live_recipients{site="other",mail_type="other"}"#
        publisher.publish(
            SnapshotMaker.snapshot(sites: [
                SnapshotMaker.site(1, live: 50), SnapshotMaker.site(2, live: 40), SnapshotMaker.site(3, live: 30),
                SnapshotMaker.site(4, live: 0), SnapshotMaker.site(nil, live: 7),
            ]))
        #expect(factory[series(1)] == 50)
        #expect(factory[series(2)] == 40)
        #expect(factory[series(3)] == nil)
        #expect(factory[series(4)] == nil)
        #expect(factory[other] == 37)
        #expect(factory.series.filter { $0.hasPrefix("ponyexpress_site_live_recipients") }.count == 3)

        publisher.publish(
            SnapshotMaker.snapshot(sites: [
                SnapshotMaker.site(3, live: 60), SnapshotMaker.site(1, live: 50), SnapshotMaker.site(2, live: 40),
            ]))
        #expect(factory[series(3)] == 60)
        #expect(factory[series(1)] == 50)
        #expect(factory[series(2)] == nil, "site 2 fell to third place: its series is removed")
        #expect(factory[other] == 40)
    }

    @Test("a gauge per finding kind counts the findings of that kind now, zero for the others")
    func findingsByKind() throws {
        let finding = { (subject: String) in
            Finding(
                kind: "growingRegistrations", mailType: self.ping, site: nil, subject: subject,
                explanation: "grows", evidence: [], firstSeen: 0)
        }
        let factory = InMemoryMetricsFactory()
        let publisher = MetricsPublisher(monitor: PostOfficeMonitor(), factory: factory)
        publisher.publish(SnapshotMaker.snapshot(findings: [finding("a"), finding("b")]))
        #expect(factory[#"ponyexpress_findings{kind="growingRegistrations"}"#] == 2)
        let others = Finding.Kind.allCases.filter { $0.rawValue != "growingRegistrations" }
        #expect(!others.isEmpty)
        for kind in others {
            #expect(factory[#"ponyexpress_findings{kind="\#(kind.rawValue)"}"#] == 0)
        }
        publisher.publish(SnapshotMaker.snapshot())
        #expect(factory[#"ponyexpress_findings{kind="growingRegistrations"}"#] == 0)
    }

    @Test("start publishes on its interval until stop; after stop no tick runs")
    func startAndStop() {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        let factory = InMemoryMetricsFactory()
        let publisher = MetricsPublisher(monitor: monitor, factory: factory)
        let posts = #"ponyexpress_posts_total{mail_type="CartChanged"}"#
        publisher.start(every: .milliseconds(20))
        office.post(CartChanged(items: 1))
        #expect(waitUntil(timeout: 10) { factory[posts] == 1 })
        office.post(CartChanged(items: 2))
        #expect(waitUntil(timeout: 10) { factory[posts] == 2 })
        publisher.stop()
        let ticks = publisher.cost.ticks
        #expect(ticks >= 2)
        office.post(CartChanged(items: 3))
        #expect(!waitUntil(timeout: 0.2) { publisher.cost.ticks != ticks }, "a tick ran after stop")
        #expect(factory[posts] == 2)
        monitor.detach()
    }
}
