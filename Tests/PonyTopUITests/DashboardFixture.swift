import PonyExpress
import PonyTopUI

struct LoginEvent {}
struct CartUpdated {}
struct DownloadProgress {}
struct NetworkChanged {}
struct SessionViewModel {}
struct CartViewModel {}
struct DownloadManager {}

/// Deterministic dashboards for drawing and key-handling tests: fixed numbers, no clock, no threads.
enum DashboardFixture {
    static let login = TypeIdentity(LoginEvent.self)
    static let cart = TypeIdentity(CartUpdated.self)
    static let download = TypeIdentity(DownloadProgress.self)
    static let network = TypeIdentity(NetworkChanged.self)

    static func latency(p50: UInt64, scale: UInt64) -> LatencyDistribution {
        let counts: [UInt64] = [0, 3 * scale, 40 * scale, 200 * scale, 90 * scale, 12 * scale, 2 * scale, 0, 1]
        return LatencyDistribution(
            count: counts.reduce(0, +), p50: p50, p90: p50 * 3, p99: p50 * 9, max: p50 * 40,
            buckets: counts.enumerated().map { .init(upperBound: 1_000 << UInt64($0.offset), count: $0.element) })
    }

    static func history(_ base: Double) -> [Double] {
        (0..<60).map { base * (1 + Double(($0 * 7) % 10) / 10) }
    }

    static let rows: [MailTypeRow] = [
        MailTypeRow(
            mailType: login, posts: 1_200, deliveries: 4_800, pruned: 0, postsPerSecond: 240, deliveriesPerSecond: 960,
            recipients: 4, handlerLatency: latency(p50: 3_000, scale: 2), queueWait: .empty, history: history(900)),
        MailTypeRow(
            mailType: cart, posts: 52_000, deliveries: 208_000, pruned: 31, postsPerSecond: 10_400,
            deliveriesPerSecond: 41_600, recipients: 12, handlerLatency: latency(p50: 1_500, scale: 40),
            queueWait: latency(p50: 25_000, scale: 10), history: history(40_000)),
        MailTypeRow(
            mailType: download, posts: 9_000, deliveries: 9_000, pruned: 4, postsPerSecond: 1_800,
            deliveriesPerSecond: 1_800, recipients: 1, handlerLatency: latency(p50: 120_000, scale: 5),
            queueWait: latency(p50: 2_000_000, scale: 5), history: history(1_700)),
        MailTypeRow(
            mailType: network, posts: 3, deliveries: 0, pruned: 0, postsPerSecond: 0.5, deliveriesPerSecond: 0,
            recipients: 0, handlerLatency: .empty, queueWait: .empty, history: []),
    ]

    static let cartRecipients: [RecipientRow] = [
        RecipientRow(
            kind: "object", objectType: "CartViewModel", queue: nil, sender: "any",
            site: "Shop/CartViewModel.swift:21", deliveries: 52_000, isDuplicate: false),
        RecipientRow(
            kind: "object", objectType: "CartViewModel", queue: nil, sender: "any",
            site: "Shop/CartViewModel.swift:21", deliveries: 52_000, isDuplicate: true),
        RecipientRow(
            kind: "block", objectType: nil, queue: "com.shop.analytics", sender: "CartService?",
            site: "Shop/Analytics.swift:88", deliveries: 51_990, isDuplicate: false),
        RecipientRow(
            kind: "object", objectType: "BadgeController", queue: "main", sender: "=CartService",
            site: "Shop/Badge.swift:12", deliveries: 52_010, isDuplicate: false),
    ]

    static let prunes: [PruneRow] = [
        PruneRow(
            recipientType: "CartViewModel", mailType: cart, site: "Shop/CartViewModel.swift:21",
            lifetime: 1_250_000_000,
            reason: "recipient"),
        PruneRow(
            recipientType: "DownloadManager", mailType: download, site: "Net/DownloadManager.swift:40",
            lifetime: 42_000_000, reason: "recipient"),
        PruneRow(
            recipientType: nil, mailType: cart, site: "Shop/Badge.swift:12", lifetime: 9_000_000_000, reason: "sender"),
    ]

    static let findings: [FindingRow] = [
        FindingRow(
            kind: "duplicateRegistration", category: "oversubscription", mailType: cart,
            site: "Shop/CartViewModel.swift:21",
            explanation: "CartViewModel registered twice for CartUpdated: every post is handled twice"),
        FindingRow(
            kind: "growingRegistrations", category: "leak", mailType: download, site: "Net/DownloadManager.swift:40",
            explanation: "live registrations at this site grew from 10 to 180 in 10 s and never fell"),
        FindingRow(
            kind: "risingQueueWait", category: "slow", mailType: download, site: nil,
            explanation: "queue wait p99 rose from 2 ms to 40 ms over 10 s"),
    ]

    /// A busy post office; the recipients are those of `CartUpdated`.
    static func busy(recipientsOf mailType: TypeIdentity? = cart, paused: Bool = false) -> Dashboard {
        Dashboard(
            scenario: ScenarioStatus(
                name: "app", phase: "steady", phaseIndex: 1, phaseCount: 3, isPaused: paused, isFinished: false),
            uptime: 83, postsPerSecond: 12_440.5, deliveriesPerSecond: 44_360, prunesPerSecond: 1.5,
            postsHistory: history(12_000), deliveriesHistory: history(44_000), prunesHistory: history(1),
            posts: 62_203, deliveries: 221_800, pruned: 35, recipientsAlive: 17, mailTypes: rows,
            handlerLatency: latency(p50: 1_600, scale: 50), queueWait: latency(p50: 30_000, scale: 15),
            recentPrunes: prunes, findings: findings, recipientsMailType: mailType,
            recipients: mailType == cart ? cartRecipients : [])
    }

    /// Nothing posted yet.
    static let empty = Dashboard(
        scenario: ScenarioStatus(
            name: "app", phase: "warm-up", phaseIndex: 0, phaseCount: 3, isPaused: false, isFinished: false),
        uptime: 0, postsPerSecond: 0, deliveriesPerSecond: 0, prunesPerSecond: 0, postsHistory: [],
        deliveriesHistory: [], prunesHistory: [], posts: 0, deliveries: 0, pruned: 0, recipientsAlive: 0, mailTypes: [],
        handlerLatency: .empty, queueWait: .empty, recentPrunes: [], findings: [], recipientsMailType: nil,
        recipients: [])
}
