import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Sent: Mail {}

/// A consumer that keeps its own starting point (a report of a run, a viewer's reset) counts from an earlier
/// snapshot of the same monitor, without resetting it.
@Suite("Counts since an earlier snapshot")
struct CountsSinceTests {
    @Test("a mail type counts its posts, deliveries and prunes from the earlier snapshot, and keeps its own rates")
    func mailTypeSince() throws {
        let (office, monitor, _) = watchedOffice()
        office.register { (_: Sent) in }
        for _ in 0..<3 { office.post(Sent()) }
        let earlier = try #require(monitor.snapshot().mailTypes.first { $0.mailType == TypeIdentity(Sent.self) })
        for _ in 0..<5 { office.post(Sent()) }
        let later = try #require(monitor.snapshot().mailTypes.first { $0.mailType == TypeIdentity(Sent.self) })
        let since = later.since(earlier)
        #expect((earlier.posts, later.posts) == (3, 8))
        #expect((since.posts, since.deliveries, since.pruned) == (5, 5, 0))
        #expect(since.recipients == later.recipients, "live recipients are now's, not a difference")
        #expect(since.postsPerSecond == later.postsPerSecond)
        #expect(since.handlerLatency == later.handlerLatency)
        #expect(later.since(later).posts == 0)
    }

    @Test("a count that went down (the app reset its monitor in between) counts from zero")
    func resetBetween() {
        let type = TypeIdentity(Sent.self)
        let earlier = MailTypeStats(mailType: type, posts: 90, deliveries: 180, pruned: 4, bridgedPosts: 10)
        let later = MailTypeStats(mailType: type, posts: 7, deliveries: 14, pruned: 1, bridgedPosts: 2)
        let since = later.since(earlier)
        #expect((since.posts, since.deliveries, since.pruned, since.bridgedPosts) == (7, 14, 1, 2))
    }

    @Test("a relay's figures count from the earlier ones, with lags only when mail arrived since")
    func relaySince() {
        let earlier = RelayFigures(sent: 10, received: 20, dropped: 1, lagSamples: 20, lagP50: 5, lagP99: 9)
        let quiet = RelayFigures(sent: 12, received: 20, dropped: 1, lagSamples: 20, lagP50: 5, lagP99: 9)
        #expect(
            quiet.since(earlier)
                == RelayFigures(sent: 2, received: 0, dropped: 0, lagSamples: 0, lagP50: 0, lagP99: 0))
        let busy = RelayFigures(sent: 12, received: 23, dropped: 1, lagSamples: 20, lagP50: 6, lagP99: 8)
        #expect(
            busy.since(earlier)
                == RelayFigures(sent: 2, received: 3, dropped: 0, lagSamples: 3, lagP50: 6, lagP99: 8))
        #expect(busy.since(nil) == busy, "a type first shared since counts everything")
    }
}
