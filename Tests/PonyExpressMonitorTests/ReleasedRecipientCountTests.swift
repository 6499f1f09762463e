import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct LogoutEvent: Mail {}

private final class Screen: Sendable {
    func logout(_: LogoutEvent) {}
}

/// The monitor's live counts of a mail type that is never posted (issue 39: screens registered weakly for
/// `LogoutEvent` and released without unregistering stayed counted as live, 1,001 for one alive, since only a post
/// or the register-time sweep reclaimed them): each snapshot has the post office check a bounded number of
/// registrations for released recipients, and the counts converge with no post and no register.
@Suite struct ReleasedRecipientCountTests {
    private let logout = TypeIdentity(LogoutEvent.self)

    /// Registers `count` screens, all alive while they register (so no register finds one released), and returns
    /// them for the caller to release.
    private func register(_ count: Int, on office: PostOffice) -> [Screen] {
        let screens = (0..<count).map { _ in Screen() }
        for screen in screens { office.register(screen, Screen.logout) }
        return screens
    }

    @Test("Screens released without unregistering stop counting as live at the next snapshot, with no post")
    func liveCountDropsWithoutAPost() {
        let (office, monitor, clock) = watchedOffice()
        let kept = Screen()
        office.register(kept, Screen.logout)
        var screens = register(300, on: office)
        clock.advance(seconds: 1)
        #expect(monitor.snapshot().totals.recipientsAlive == 301)
        screens.removeAll()
        clock.advance(seconds: 1)

        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.recipientsAlive == 1)
        #expect(snapshot.stats(of: logout)?.recipients.total == 1)
        #expect(snapshot.totals.pruned == 300)
        #expect(snapshot.recentPrunes.allSatisfy { $0.reason == .recipientReleased && $0.mailType == logout })
        #expect(office.recipientCount == 1)
        #expect(office.prune() == 0, "nothing released was left behind")
        withExtendedLifetime(kept) {}
    }

    @Test("Snapshots check 10,240 registrations a second passed, ten seconds' worth at most, whoever takes them")
    func checksAreBounded() {
        let (office, monitor, clock) = watchedOffice()
        var screens = register(120_000, on: office)
        // After them: the checks reach it last.
        let kept = Screen()
        office.register(kept, Screen.logout)
        screens.removeAll()
        clock.advance(seconds: 100)

        // A hundred seconds since the monitor started, but ten seconds' checks at most: 102,400 registrations.
        #expect(monitor.snapshot().totals.recipientsAlive == 120_001 - 102_400)
        // Another consumer's snapshot at the same time, or within a tenth of a second, checks nothing more.
        let judge = monitor.makeJudge()
        #expect(monitor.snapshot(judgedBy: judge).totals.recipientsAlive == 120_001 - 102_400)
        clock.advance(seconds: 0.05)
        #expect(monitor.snapshot().totals.recipientsAlive == 120_001 - 102_400)
        // Three tenths of a second since the last check: three times 1,024.
        clock.advance(seconds: 0.25)
        #expect(monitor.snapshot(judgedBy: judge).totals.recipientsAlive == 120_001 - 102_400 - 3_072)
        // Ten seconds' checks again, which stop once round all the registrations: only the kept screen is left.
        clock.advance(seconds: 10)
        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.recipientsAlive == 1)
        #expect(snapshot.totals.pruned == 120_000)
        #expect(office.recipientCount == 1)
        withExtendedLifetime(kept) {}
    }

    @Test("A detached monitor's snapshots check nothing: the post office is no longer its to touch")
    func detachedMonitorChecksNothing() {
        let (office, monitor, clock) = watchedOffice()
        var screens = register(10, on: office)
        monitor.detach()
        screens.removeAll()
        clock.advance(seconds: 1)
        _ = monitor.snapshot()
        #expect(office.prune() == 10, "the snapshot pruned what a detached monitor should leave alone")
    }
}
