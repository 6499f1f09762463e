import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct CartShown: Mail {}
private struct Browsed: Mail {}

/// A run is judged as a whole: a leak stays a leak after its growth stops, a population that fills up and empties is
/// retracted with its reason, and a stall that clears stays in the run's log, no longer holding.
@Suite struct FindingLogTests {
    /// Cart screens kept alive one a second for 25 s (registered for `CartShown`), the monitor's log recorded at
    /// each second; returns the screens and their ids.
    private func fillCarts(
        _ office: PostOffice, _ monitor: PostOfficeMonitor, _ clock: ManualClock, log: inout FindingLog
    ) -> [(screen: TestRecipient, id: RecipientId)] {
        var carts: [(screen: TestRecipient, id: RecipientId)] = []
        for _ in 0..<25 {
            let screen = TestRecipient()
            carts.append((screen, office.register(CartShown.self, screen, TestRecipient.receive)))
            office.post(CartShown())
            clock.advance(seconds: 1)
            log.record(monitor.snapshot())
        }
        return carts
    }

    /// A minute of browsing elsewhere: posts of another mail type, nothing registered for the carts' type.
    private func browse(
        seconds: Int, _ office: PostOffice, _ monitor: PostOfficeMonitor, _ clock: ManualClock, log: inout FindingLog
    ) {
        let browser = office.register { (_: Browsed) in }
        for _ in 0..<seconds {
            office.post(Browsed())
            clock.advance(seconds: 1)
            log.record(monitor.snapshot())
        }
        office.unregister(browser)
    }

    @Test func aLeakThatStopsGrowingHoldsToTheEndOfTheRun() throws {
        let (office, monitor, clock) = watchedOffice()
        var log = FindingLog()
        let carts = fillCarts(office, monitor, clock, log: &log)
        #expect(!monitor.snapshot().findings(of: .growingRegistrations).isEmpty, "raised while it grows")
        browse(seconds: 65, office, monitor, clock, log: &log)

        let snapshot = monitor.snapshot()
        let finding = try #require(snapshot.findings(of: .growingRegistrations).first, "the 25 screens still leak")
        #expect(finding.retraction == nil)
        #expect(finding.explanation.contains("no longer growing"))
        #expect(snapshot.retractedFindings.isEmpty)
        let entry = try #require(log.entries.first { $0.finding.kind == .growingRegistrations })
        #expect(entry.state == .holding)
        #expect(entry.counts)
        #expect(entry.lastSeen == snapshot.time)
        #expect(entry.firstSeen < entry.lastSeen)
        #expect((entry.worst.evidence(named: .live) ?? 0) >= 8)
        #expect(carts.count == 25)
    }

    @Test func aPopulationThatFillsUpAndEndsIsRetractedWithItsReason() throws {
        let (office, monitor, clock) = watchedOffice()
        var log = FindingLog()
        let carts = fillCarts(office, monitor, clock, log: &log)
        browse(seconds: 10, office, monitor, clock, log: &log)
        #expect(!monitor.snapshot().findings(of: .growingRegistrations).isEmpty)

        for cart in carts { office.unregister(cart.id) }
        clock.advance(seconds: 1)
        let changes = log.record(monitor.snapshot())

        let snapshot = monitor.snapshot()
        #expect(snapshot.findings(of: .growingRegistrations).isEmpty)
        let retracted = try #require(snapshot.retractedFindings.first)
        #expect(retracted.kind == .growingRegistrations)
        #expect(retracted.retraction?.contains("the registrations that raised it ended") == true)
        #expect(retracted.retraction?.contains("not a leak") == true)
        #expect(changes.map(\.event) == [.retracted])
        let entry = try #require(log.entries.first)
        guard case .retracted(let reason) = entry.state else {
            Issue.record("expected a retracted entry, got \(entry.state)")
            return
        }
        #expect(reason == retracted.retraction)
        #expect(!entry.counts, "a retracted leak does not fail the run")

        monitor.reset()
        #expect(monitor.snapshot().retractedFindings.isEmpty, "a reset forgets retractions")
    }

    @Test func aLeakRetractedIsRaisedAgainWhenItsSiteLeaksAgain() throws {
        let (office, monitor, clock) = watchedOffice()
        var log = FindingLog()
        let first = fillCarts(office, monitor, clock, log: &log)
        for cart in first { office.unregister(cart.id) }
        clock.advance(seconds: 1)
        log.record(monitor.snapshot())
        #expect(monitor.snapshot().retractedFindings.count == 1)
        let again = fillCarts(office, monitor, clock, log: &log)
        #expect(monitor.snapshot().retractedFindings.isEmpty)
        #expect(log.entries.first?.state == .holding)
        #expect(again.count == 25)
    }
}

/// A stall that clears is listed for the whole run, no longer holding, and still counts against it.
@Suite(.tags(.concurrency)) struct ClearedStallLogTests {
    @Test func aStallThatClearsStaysInTheLogNoLongerHolding() throws {
        let (office, monitor, clock) = watchedOffice { $0.stalledQueueWait = 0.02 }
        let queue = DispatchQueue(label: "monitor.tests.cleared")
        office.register(queue: queue) { (_: Browsed) in }
        var log = FindingLog()
        var delivered: UInt64 = 0
        for second in 0..<30 {
            let stalls = second < 6
            if stalls { queue.suspend() }
            office.post(Browsed())
            delivered += 1
            if stalls {
                spin(nanoseconds: 30_000_000)
                queue.resume()
            }
            #expect(waitUntil { monitor.snapshot().totals.deliveries == delivered })
            clock.advance(seconds: 1)
            log.record(monitor.snapshot())
        }
        #expect(monitor.snapshot().findings(of: .stalledQueue).isEmpty, "the stall cleared")
        let entry = try #require(log.entries.first { $0.finding.kind == .stalledQueue })
        #expect(entry.state == .noLongerHolding)
        #expect(entry.counts, "a stall seen during the run fails --fail-on slow")
        #expect(entry.finding.category == .slow)
        #expect((entry.worst.evidence(named: .worstWait) ?? 0) >= 30_000_000)
    }
}
