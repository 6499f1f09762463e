import PonyExpress
import PonyExpressMonitor
import PonyTopModel
import PonyTopUI

struct LoginEvent {}
struct CartUpdated {}
struct DownloadProgress {}
struct NetworkChanged {}
class FixtureEvent {}
final class ScreenShown: FixtureEvent {}
final class CartViewModel {}
final class BadgeController {}
final class AnalyticsLogger {}
final class CartService {}
final class DownloadManager {}

/// Deterministic dashboards for drawing and key-handling tests: fixed numbers, no clock, no threads.
enum DashboardFixture {
    static let login = TypeIdentity(LoginEvent.self)
    static let cart = TypeIdentity(CartUpdated.self)
    static let download = TypeIdentity(DownloadProgress.self)
    static let network = TypeIdentity(NetworkChanged.self)
    static let event = TypeIdentity(FixtureEvent.self)
    static let screen = TypeIdentity(ScreenShown.self)
    static let second: UInt64 = 1_000_000_000

    /// Recipients: objects of the fixture's recipient types.
    static let cartViewModel = RecipientKind.object(TypeIdentity(CartViewModel.self))
    static let badgeController = RecipientKind.object(TypeIdentity(BadgeController.self))
    static let analyticsLogger = RecipientKind.object(TypeIdentity(AnalyticsLogger.self))
    /// The sender the fixture's filters name.
    static let cartService = TypeIdentity(CartService.self)

    static func latency(p50: UInt64, scale: UInt64) -> LatencySummary {
        let counts: [UInt64] = [0, 3 * scale, 40 * scale, 200 * scale, 90 * scale, 12 * scale, 2 * scale, 0, 1]
        return LatencySummary(
            count: counts.reduce(0, +), p50: p50, p90: p50 * 3, p99: p50 * 9, p999: p50 * 20, max: p50 * 40,
            buckets: counts.enumerated().map { .init(upperBound: 1_000 << UInt64($0.offset), count: $0.element) })
    }

    /// A mail type's statistics as the mail types table reads them, with `recipients` blocks registered for it.
    static func row(
        mailType: TypeIdentity, posts: UInt64 = 0, deliveries: UInt64 = 0, pruned: UInt64 = 0,
        postsPerSecond: Double = 0, deliveriesPerSecond: Double = 0, recipients: Int = 0, inheritedRecipients: Int = 0,
        handlerLatency: LatencySummary = .empty, queueWait: LatencySummary = .empty, history: [Double] = [],
        superclasses: [TypeIdentity] = []
    ) -> MailTypeStats {
        MailTypeStats(
            mailType: mailType, posts: posts, deliveries: deliveries, pruned: pruned, postsPerSecond: postsPerSecond,
            deliveriesPerSecond: deliveriesPerSecond, history: history,
            recipients: RecipientCounts(total: recipients, objects: 0, blocks: recipients, byQueue: [:]),
            handlerLatency: handlerLatency, queueWait: queueWait, superclasses: superclasses,
            inheritedRecipients: inheritedRecipients)
    }

    static func history(_ base: Double) -> [Double] {
        (0..<60).map { base * (1 + Double(($0 * 7) % 10) / 10) }
    }

    static let rows: [MailTypeStats] = [
        row(
            mailType: login, posts: 1_200, deliveries: 4_800, postsPerSecond: 240, deliveriesPerSecond: 960,
            recipients: 4, handlerLatency: latency(p50: 3_000, scale: 2), history: history(900)),
        row(
            mailType: cart, posts: 52_000, deliveries: 208_000, pruned: 31, postsPerSecond: 10_400,
            deliveriesPerSecond: 41_600, recipients: 175, handlerLatency: latency(p50: 1_500, scale: 40),
            queueWait: latency(p50: 25_000, scale: 10), history: history(40_000)),
        row(
            mailType: download, posts: 9_000, deliveries: 9_000, pruned: 4, postsPerSecond: 1_800,
            deliveriesPerSecond: 1_800, recipients: 1, handlerLatency: latency(p50: 120_000, scale: 5),
            queueWait: latency(p50: 2_000_000, scale: 5), history: history(1_700)),
        row(mailType: network, posts: 3, postsPerSecond: 0.5),
        row(mailType: event, recipients: 1),
        row(
            mailType: screen, posts: 1_500, deliveries: 1_500, postsPerSecond: 300, deliveriesPerSecond: 300,
            inheritedRecipients: 1, handlerLatency: latency(p50: 6_000, scale: 3),
            queueWait: latency(p50: 400_000, scale: 3), history: history(300), superclasses: [event]),
    ]

    /// A registration for CartUpdated made `age` before the fixture's `now`, as a snapshot's receivers give it.
    static func registration(
        _ id: UInt64, _ site: String, kind: RecipientKind = .block, queue: String? = nil,
        sender: SenderFilter = .any, age: UInt64, deliveries: UInt64, duplicate: Bool = false
    ) -> ReceiverStats {
        let info = RecipientInfo(
            id: RecipientId(rawValue: id), mailType: cart, kind: kind, objectIdentifier: nil, sender: sender,
            queueLabel: queue, site: SourceLocation(fixture: site), registeredAt: now - age)
        let stats = RecipientStats(
            info: info, deliveries: deliveries, handlerLatency: nil, isDuplicate: duplicate, handlerTime: 0,
            maxHandlerTime: 0)
        return ReceiverStats(recipient: stats, isInherited: false, deliveries: deliveries, handlerTime: 0)
    }

    static let leakSite = SourceLocation(fixture: "ShopKit/Views/Cart/CartBadgeObserver.swift:140")

    static let leakRegistrations: [ReceiverStats] = (0..<171).map { (index: Int) -> ReceiverStats in
        let age: UInt64 = (41 - UInt64(index) / 5) * second
        let deliveries = UInt64(9_000 - index * 40)
        return registration(UInt64(100 + index), leakSite.description, age: age, deliveries: deliveries)
    }

    static let cartSites: [SiteRow] = [
        SiteRow(
            site: SourceLocation(fixture: "Shop/CartViewModel.swift:21"), registeredFor: "CartUpdated",
            kind: cartViewModel,
            queue: nil, sender: .any, recipients: 2, growth10s: 0, growth1m: 0,
            oldestAge: 83 * second, deliveries: 104_000,
            registrations: [
                registration(
                    3, "Shop/CartViewModel.swift:21", kind: cartViewModel, age: 83 * second, deliveries: 52_000),
                registration(
                    9, "Shop/CartViewModel.swift:21", kind: cartViewModel, age: 80 * second, deliveries: 52_000,
                    duplicate: true),
            ]),
        SiteRow(
            site: SourceLocation(fixture: "Shop/Analytics.swift:88"), registeredFor: "CartUpdated", kind: .block,
            queue: "com.shop.analytics", sender: .optional(cartService), recipients: 1, growth10s: 0, growth1m: 0,
            oldestAge: 83 * second, deliveries: 51_990, queueWaitP99: 225_000,
            registrations: [
                registration(
                    4, "Shop/Analytics.swift:88", queue: "com.shop.analytics", sender: .optional(cartService),
                    age: 83 * second, deliveries: 51_990)
            ]),
        SiteRow(
            site: SourceLocation(fixture: "Shop/Badge.swift:12"), registeredFor: "CartUpdated", kind: badgeController,
            queue: "main", sender: .exact(cartService), recipients: 1, growth10s: 0, growth1m: 1,
            oldestAge: 50 * second,
            deliveries: 52_010, queueWaitP99: 3_100_000,
            registrations: [
                registration(
                    5, "Shop/Badge.swift:12", kind: badgeController, queue: "main", sender: .exact(cartService),
                    age: 50 * second, deliveries: 52_010)
            ]),
        SiteRow(
            site: leakSite, registeredFor: "CartUpdated", kind: .block, queue: nil,
            sender: .any, recipients: 171, growth10s: 40, growth1m: 171, oldestAge: 41 * second,
            deliveries: 1_200_000,
            registrations: leakRegistrations),
    ]

    /// The busy dashboard's snapshot time, on the monitor's clock: ages are counted back from it.
    static let now: UInt64 = 1_000 * second

    static let prunes: [PruneRecord] = [
        PruneRecord(
            recipientType: TypeIdentity(CartViewModel.self), mailType: cart,
            site: SourceLocation(fixture: "Shop/CartViewModel.swift:21"),
            lifetime: 1_250_000_000, reason: .recipientReleased, time: now - 2 * second),
        PruneRecord(
            recipientType: TypeIdentity(DownloadManager.self), mailType: download,
            site: SourceLocation(fixture: "Net/DownloadManager.swift:40"),
            lifetime: 42_000_000, reason: .recipientReleased, time: now - 3 * second),
        PruneRecord(
            recipientType: TypeIdentity(CartViewModel.self), mailType: cart,
            site: SourceLocation(fixture: "Shop/CartViewModel.swift:21"),
            lifetime: 2_500_000_000, reason: .recipientReleased, time: now - 7 * second),
        PruneRecord(
            recipientType: nil, mailType: cart, site: SourceLocation(fixture: "Shop/Badge.swift:12"),
            lifetime: 9_000_000_000,
            reason: .senderReleased, time: now - 20 * second),
    ]

    static let findings: [FindingLog.Entry] = [
        Finding(
            kind: "duplicateRegistration", mailType: cart, site: SourceLocation(fixture: "Shop/CartViewModel.swift:21"),
            explanation: "CartViewModel registered twice for CartUpdated: every post is handled twice",
            evidence: [.init(name: "registrations of one object", value: 2)], firstSeen: now - 30 * second),
        Finding(
            kind: "growingRegistrations", mailType: cart, site: leakSite,
            explanation: "blocks registered at \(leakSite) grew by 40 in 10 s and none was ever unregistered",
            evidence: [.init(name: "live blocks", value: 171), .init(name: "growth", value: 40)],
            firstSeen: now - 12 * second),
        Finding(
            kind: "risingQueueWait", mailType: download, site: nil, subject: "app.ui",
            explanation: "queue wait p99 on app.ui rose from 2 ms to 40 ms over 10 s",
            evidence: [.init(name: "early wait ms", value: 2), .init(name: "late wait ms", value: 40.5)],
            firstSeen: now - 5 * second),
    ].map(FindingLog.Entry.init(holding:))

    /// A queue's statistics as the queues table reads them: `recipients` of one site deliver on it.
    static func queue(
        _ label: String, deliveries: UInt64, deliveriesPerSecond: Double = 0, backlog: Double = 0,
        wait: LatencySummary = .empty, mailTypes: [TypeIdentity] = [], recipients: Int = 0
    ) -> QueueStats {
        QueueStats(
            label: label, deliveries: deliveries, meanWait: 0, maxWait: wait.max, waitHistory: [], wait: wait,
            deliveriesPerSecond: deliveriesPerSecond, estimatedBacklog: backlog,
            mailTypes: mailTypes.map { QueueMailType(mailType: $0, deliveries: 0, meanWait: 0, waitsOverBound: 0) },
            load: recipients == 0
                ? []
                : [
                    QueueLoad(
                        site: SourceLocation(fixture: "Shop/Queued.swift:1"), mailType: mailTypes[0], kind: .block,
                        recipients: recipients, deliveries: deliveries, handlerTime: 0, share: 1)
                ])
    }

    static let queues: [QueueStats] = [
        queue(
            "com.shop.analytics", deliveries: 51_990, deliveriesPerSecond: 10_400, backlog: 3,
            wait: latency(p50: 25_000, scale: 10), mailTypes: [cart], recipients: 1),
        queue(
            "main", deliveries: 61_010, deliveriesPerSecond: 12_200, backlog: 140,
            wait: latency(p50: 2_000_000, scale: 5), mailTypes: [cart, download], recipients: 2),
        queue("app.idle", deliveries: 0),
    ]

    /// A busy post office; the sites are those of `CartUpdated`.
    static func busy(sitesOf mailType: TypeIdentity? = cart, paused: Bool = false) -> Dashboard {
        Dashboard(
            status: SourceStatus(
                name: "app", phase: "steady", phaseIndex: 1, phaseCount: 3, isPaused: paused, isFinished: false),
            uptime: 83, postsPerSecond: 12_440.5, deliveriesPerSecond: 44_360, prunesPerSecond: 1.5,
            postsHistory: history(12_000), deliveriesHistory: history(44_000), prunesHistory: history(1),
            posts: 62_203, deliveries: 221_800, pruned: 35, recipients: 181, mailTypes: rows,
            handlerLatency: latency(p50: 1_600, scale: 50), queueWait: latency(p50: 30_000, scale: 15), queues: queues,
            time: now, prunes: prunes, findings: findings, sitesMailType: mailType,
            sites: mailType == cart ? cartSites : [])
    }

    /// Nothing posted yet.
    static let empty = Dashboard(
        status: SourceStatus(
            name: "app", phase: "warm-up", phaseIndex: 0, phaseCount: 3, isPaused: false, isFinished: false))
}

extension SourceLocation {
    /// A fixture's registration site from its text, `Module/File.swift:line`.
    init(fixture text: String) {
        let colon = text.lastIndex(of: ":")!
        self.init(fileID: String(text[..<colon]), line: UInt(text[text.index(after: colon)...])!)
    }
}

extension MailTypeStats {
    /// The same statistics with some figures changed, for tests that move one number.
    func with(postsPerSecond: Double? = nil, bridgedPosts: UInt64? = nil, relay: RelayFigures? = nil) -> MailTypeStats {
        MailTypeStats(
            mailType: mailType, posts: posts, deliveries: deliveries, skipped: skipped, pruned: pruned,
            postsPerSecond: postsPerSecond ?? self.postsPerSecond, deliveriesPerSecond: deliveriesPerSecond,
            postsPerSecondLong: postsPerSecondLong, deliveriesPerSecondLong: deliveriesPerSecondLong, history: history,
            recipients: recipients, handlerLatency: handlerLatency, queueWait: queueWait, superclasses: superclasses,
            inheritedRecipients: inheritedRecipients, bridgedPosts: bridgedPosts ?? bridged, relay: relay ?? self.relay)
    }
}
