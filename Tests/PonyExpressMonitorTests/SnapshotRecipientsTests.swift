import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}

private let ping = TypeIdentity(Ping.self)
private let pong = TypeIdentity(Pong.self)

/// A snapshot limited to some mail types' recipients, as the agent takes one for a viewer.
@Suite struct SnapshotRecipientsTests {
    @Test func aLimitedSnapshotCarriesExactlyTheAskedRecipientsAndEveryOtherFigureOfTheFullOne() {
        let (office, monitor, clock) = watchedOffice()
        let recipient = TestRecipient()
        // The same object twice: a duplicate registration, and a finding both snapshots must report.
        office.register(Ping.self, recipient, TestRecipient.receive)
        office.register(Ping.self, recipient, TestRecipient.receive)
        let queue = DispatchQueue(label: "limited")
        office.register(queue: queue, { (_: Ping) in })
        for _ in 0..<3 { office.register { (_: Pong) in } }
        for _ in 0..<5 { office.post(Ping()) }
        office.post(Pong())
        // The queued deliveries finish before the snapshots, which must see the same counts.
        queue.sync {}
        clock.advance(seconds: 2)

        let full = monitor.snapshot()
        let limited = monitor.snapshot(recipientsOf: [ping])
        let none = monitor.snapshot(recipientsOf: [])

        #expect(full.recipients(of: ping).count == 3)
        #expect(full.recipients(of: pong).count == 3)
        #expect(limited.recipients(of: ping) == full.recipients(of: ping))
        #expect(limited.recipients(of: pong).isEmpty)
        #expect(none.recipients(of: ping).isEmpty && none.recipients(of: pong).isEmpty)
        #expect(!full.findings(of: .duplicateRegistration).isEmpty)
        for snapshot in [limited, none] {
            #expect(snapshot.time == full.time)
            #expect(snapshot.totals == full.totals)
            #expect(snapshot.mailTypes == full.mailTypes)
            #expect(snapshot.handlerLatency == full.handlerLatency)
            #expect(snapshot.queueWait == full.queueWait)
            #expect(snapshot.queues == full.queues)
            #expect(snapshot.sites == full.sites)
            #expect(snapshot.recentPrunes == full.recentPrunes)
            #expect(snapshot.findings == full.findings)
        }
        #expect(limited.stats(of: ping)?.recipients.byQueue == ["sync": 2, "limited": 1])
    }
}
