import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}
private struct Tick: Mail {}

@Suite(.blocksItsThread, .tags(.concurrency)) struct MonitorMemoryTests {
    /// One second of a busy app: recipients come and go (some unregistered, some left to be pruned, some blocks),
    /// from several sites, with synchronous and queued delivery, and a snapshot every second.
    private func churn(_ office: PostOffice, _ clock: ManualClock, _ monitor: PostOfficeMonitor, queue: DispatchQueue) {
        var ids: [RecipientId] = []
        var objects: [TestRecipient] = []
        for index in 0..<40 {
            let object = TestRecipient()
            objects.append(object)
            ids.append(office.register(Ping.self, object, TestRecipient.receive, line: UInt(index % 5)))
        }
        for index in 0..<20 { ids.append(office.register({ (_: Pong) in }, line: UInt(100 + index % 5))) }
        ids.append(office.register(queue: queue) { (_: Tick) in })
        for _ in 0..<100 {
            office.post(Ping())
            office.post(Pong())
            office.post(Tick())
        }
        queue.sync {}
        for id in ids.prefix(30) { office.unregister(id) }
        for id in ids.suffix(21) { office.unregister(id) }
        objects.removeAll()
        office.prune()
        clock.advance(seconds: 1)
        _ = monitor.snapshot()
    }

    @Test func theMonitorsFootprintStaysFlatAfterWarmUp() {
        let office = PostOffice()
        let clock = ManualClock()
        var settings = MonitorSettings()
        // One shard, so that which queue thread runs which delivery cannot change the count of histograms.
        settings.shards = 1
        let monitor = PostOfficeMonitor(settings: settings, clock: clock)
        monitor.attach(to: office)
        let queue = DispatchQueue(label: "monitor.tests.memory")
        // Warm-up: longer than every ring (60 s of history), so every table has reached its working size.
        for _ in 0..<100 { churn(office, clock, monitor, queue: queue) }
        let warm = monitor.estimatedMemoryBytes
        var peak = warm
        for _ in 0..<400 {
            churn(office, clock, monitor, queue: queue)
            peak = max(peak, monitor.estimatedMemoryBytes)
        }
        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == 500 * 300)
        #expect(snapshot.totals.pruned == 500 * 10)
        #expect(snapshot.recentPrunes.count == settings.pruneLogCapacity)
        #expect(snapshot.totals.recipientsAlive == 0)
        #expect(peak == warm, "the footprint grew from \(warm) to \(peak) bytes after warm-up")
        #expect(snapshot.estimatedMemoryBytes == monitor.estimatedMemoryBytes)
    }

    /// What `ponybench retention` prints and the agent article reads: the estimate by part adds up to the estimate
    /// (less a fixed overhead: the monitor's own object and each shard's slot), and a longer history grows the rings
    /// of mail types and sites only, not what is counted per recipient.
    @Test func theEstimateByPartAddsUpAndHistoryGrowsOnlyRings() {
        func measured(history: Int) -> (total: Int, parts: [String: Int]) {
            let (office, monitor, clock) = watchedOffice {
                $0.shards = 1
                $0.historyLength = history
            }
            let objects = (0..<50).map { _ in TestRecipient() }
            for (index, object) in objects.enumerated() {
                office.register(Ping.self, object, TestRecipient.receive, line: UInt(index % 5))
            }
            for _ in 0..<10 {
                office.post(Ping())
                clock.advance(seconds: 1)
            }
            _ = monitor.snapshot()
            let parts = monitor.estimatedMemoryParts
            let total = monitor.estimatedMemoryBytes
            let overhead = total - parts.reduce(0) { $0 + $1.bytes }
            #expect(overhead > 0 && overhead < 4_096, "\(overhead) bytes outside the parts")
            withExtendedLifetime(objects) {}
            return (total, Dictionary(parts.map { ($0.part, $0.bytes) }, uniquingKeysWith: +))
        }
        let minute = measured(history: 60)
        let hour = measured(history: 3_600)
        #expect(hour.total > minute.total * 2, "\(minute.total) -> \(hour.total)")
        // Which deliveries are timed is sampled, so the parts that timed runs make (histograms, run profiles, the
        // table of other types' recipients) may differ by a few entries between the two runs: a ring of an hour is
        // 4,096 slots where a minute's is 64, so the rings grow by tens of kilobytes and nothing else by more than
        // one allocation's rounding.
        for part in minute.parts.keys {
            let change = hour.parts[part, default: 0] - minute.parts[part, default: 0]
            let isRings = part.hasPrefix("registry") || part.hasPrefix("mail types' counts and rings")
            let shown = "\(part): \(minute.parts[part, default: 0]) -> \(hour.parts[part, default: 0])"
            if isRings {
                #expect(change > 32_768, "\(shown)")
            } else {
                #expect(abs(change) < 4_096, "\(shown)")
            }
        }
    }
}
