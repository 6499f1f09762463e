import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}

@Suite struct PostOfficeMonitorTests {
    @Test func countsPostsAndDeliveriesExactly() {
        let office = PostOffice()
        let clock = ManualClock()
        let monitor = PostOfficeMonitor(clock: clock)
        monitor.attach(to: office)
        office.register { (_: Ping) in }
        office.register { (_: Ping) in }
        for _ in 0..<100 { office.post(Ping()) }
        clock.advance(seconds: 1)
        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == 100)
        #expect(snapshot.totals.deliveries == 200)
        #expect(snapshot.totals.postsPerSecond == 100)
        #expect(snapshot.totals.deliveriesPerSecond == 200)
        #expect(snapshot.totals.recipientsAlive == 2)
        let stats = snapshot.stats(of: TypeIdentity(Ping.self))
        #expect(stats?.recipients.blocks == 2)
        #expect(stats?.handlerLatency.count == 200)
    }
}
