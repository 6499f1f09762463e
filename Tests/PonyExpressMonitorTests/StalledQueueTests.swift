import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private class AppEvent: Mail, @unchecked Sendable {}
private final class ScreenViewed: AppEvent, @unchecked Sendable {}

/// A queue whose mail waits longer than a user would accept is reported, with what waits and who keeps it busy;
/// subclass mail counts for the recipient of the superclass that received it.
@Suite(.tags(.concurrency)) struct StalledQueueTests {
    /// Each second, mail posted to a suspended queue waits `wait` before the queue runs it, on a manual clock.
    private func stall(
        seconds: Int, wait: UInt64, configure: (inout MonitorSettings) -> Void = { _ in }
    ) -> (MonitorSnapshot, firstSeen: Int?) {
        let (office, monitor, clock) = watchedOffice(configure)
        let queue = DispatchQueue(label: "monitor.tests.stall")
        let analytics = TestRecipient()
        office.register(queue: queue, AppEvent.self, analytics, TestRecipient.receive)
        office.register(queue: queue) { (_: Ping) in }
        var delivered: UInt64 = 0
        var firstSeen: Int?
        for second in 0..<seconds {
            queue.suspend()
            for _ in 0..<4 { office.post(ScreenViewed()) }
            office.post(Ping())
            delivered += 5
            spin(nanoseconds: wait)
            queue.resume()
            #expect(waitUntil { monitor.snapshot().totals.deliveries == delivered })
            clock.advance(seconds: 1)
            if firstSeen == nil, !monitor.snapshot().findings(of: .stalledQueue).isEmpty { firstSeen = second + 1 }
        }
        return (monitor.snapshot(), firstSeen)
    }

    @Test func reportsAQueueWhoseMailWaitsLongerThanTheBoundSecondAfterSecond() throws {
        let (snapshot, firstSeen) = stall(seconds: 6, wait: 30_000_000) { $0.stalledQueueWait = 0.02 }
        #expect(firstSeen == 3, "three seconds over the bound")
        let finding = try #require(snapshot.findings(of: .stalledQueue).first)
        #expect(finding.category == .slow)
        #expect(finding.subject == "monitor.tests.stall")
        #expect(finding.mailType == TypeIdentity(ScreenViewed.self), "the type that waited most")
        #expect(finding.site?.fileID == "PonyExpressMonitorTests/StalledQueueTests.swift")
        #expect(finding.evidence(named: .shareOverBound) == 1)
        #expect(finding.evidence(named: .waitBound) == 20_000_000)
        #expect((finding.evidence(named: .worstWait) ?? 0) >= 30_000_000)
        #expect(finding.evidence(named: .deliveries) == 25)
        #expect(finding.evidence(named: .secondsOverBound) == 5)
        #expect(finding.explanation.hasPrefix("queue monitor.tests.stall stalls: 100% of its 25 deliveries"))
        #expect(finding.explanation.contains("waiting: ScreenViewed, Ping"))
        #expect(finding.explanation.contains("handler time: "))
    }

    @Test func ignoresAQueueWhoseWaitsStayUnderTheBound() {
        let (snapshot, _) = stall(seconds: 6, wait: 5_000_000) { $0.stalledQueueWait = 0.5 }
        #expect(snapshot.findings.isEmpty)
        #expect(snapshot.queues.first?.recentShareOverBound == 0)
    }

    @Test func theDefaultBoundIsAQuarterOfASecond() {
        let (snapshot, _) = stall(seconds: 4, wait: 30_000_000)
        #expect(snapshot.findings(of: .stalledQueue).isEmpty)
        #expect(MonitorSettings().stalledQueueWait == 0.25)
    }

    @Test func aSuperclassRecipientThatTakesTheHandlerTimeOfASubclassIsTheSlowOne() throws {
        let (office, monitor, _) = watchedOffice { $0.slowRecipientMinimumMean = 200_000 }
        let slow = office.register { (_: AppEvent) in spin(nanoseconds: 1_000_000) }
        office.register { (_: ScreenViewed) in }
        for _ in 0..<20 { office.post(ScreenViewed()) }

        let snapshot = monitor.snapshot()
        let finding = try #require(snapshot.findings(of: .slowRecipient).first)
        #expect(finding.mailType == TypeIdentity(ScreenViewed.self))
        #expect(
            finding.explanation.contains("a block (\(slow)), registered for AppEvent, takes"), "\(finding.explanation)")
        let receivers = snapshot.receivers(of: TypeIdentity(ScreenViewed.self))
        #expect(receivers.map(\.deliveries) == [20, 20])
    }
}
