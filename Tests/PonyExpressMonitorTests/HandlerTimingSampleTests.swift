import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private let ping = TypeIdentity(Ping.self)

/// At default settings the monitor has one post in ``MonitorSettings/handlerTimingInterval`` timed on each thread:
/// counts stay exact, handler times come from the sample.
@Suite struct HandlerTimingSampleTests {
    @Test func countsEveryDeliveryAndTimesASample() {
        let (office, monitor, clock) = watchedOffice()
        let interval = monitor.settings.handlerTimingInterval
        #expect(interval == 32)
        #expect(monitor.timingInterval == interval)
        let recipient = office.register { (_: Ping) in }
        let posts = 10_000
        for _ in 0..<posts { office.post(Ping()) }
        clock.advance(seconds: 1)

        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == UInt64(posts))
        #expect(snapshot.totals.deliveries == UInt64(posts))
        #expect(snapshot.stats(of: ping)?.deliveries == UInt64(posts))
        #expect(snapshot.totals.deliveriesPerSecond == Double(posts))
        #expect(snapshot.recipients(of: ping).map(\.info.id) == [recipient])
        #expect(snapshot.recipients(of: ping).map(\.deliveries) == [UInt64(posts)])
        let timed = snapshot.handlerLatency.count
        #expect(timed >= UInt64(posts / interval), "at least one post in the interval is timed")
        #expect(timed < UInt64(posts), "a tight loop of posts is not timed whole")
    }

    @Test func meanHandlerTimeIsEstimatedFromTheSample() {
        let (office, monitor, _) = watchedOffice()
        office.register { (_: Ping) in spin(nanoseconds: 100_000) }
        office.register { (_: Ping) in }
        for _ in 0..<200 { office.post(Ping()) }

        let recipients = monitor.snapshot().recipients(of: ping)
        #expect(recipients.map(\.deliveries) == [200, 200])
        let slow = recipients[0]
        #expect(slow.meanHandlerTime >= 95_000, "the mean of the timed runs stands for every run")
        #expect(slow.handlerTime >= 200 * 95_000)
        #expect(slow.maxHandlerTime >= 100_000)
        #expect(recipients[1].meanHandlerTime < slow.meanHandlerTime)
    }

    @Test func settingsRejectAnIntervalOutOfRange() {
        var settings = MonitorSettings()
        settings.handlerTimingInterval = 0
        #expect(throws: MonitorSettingsError.self) { try settings.validate() }
        #expect(PostOfficeMonitor(settings: settings).timingInterval == 1)
        settings.handlerTimingInterval = 1
        #expect(throws: Never.self) { try settings.validate() }
    }
}
