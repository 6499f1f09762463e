import PonyExpress
import PonyExpressMonitor

/// Snapshots made by hand, with just the figures a test sets.
enum SnapshotMaker {
    struct Parcel: Mail {}
    struct Ping: Mail {}

    static func mailType(
        _ type: TypeIdentity, posts: UInt64 = 0, deliveries: UInt64 = 0, skipped: UInt64 = 0, pruned: UInt64 = 0,
        recipients: Int = 0, handlerLatency: LatencySummary = .empty, queueWait: LatencySummary = .empty
    ) -> MailTypeStats {
        MailTypeStats(
            mailType: type, posts: posts, deliveries: deliveries, skipped: skipped, pruned: pruned, postsPerSecond: 0,
            deliveriesPerSecond: 0, postsPerSecondLong: 0, deliveriesPerSecondLong: 0, history: [],
            recipients: RecipientCounts(total: recipients, objects: recipients, blocks: 0, byQueue: [:]),
            handlerLatency: handlerLatency, queueWait: queueWait)
    }

    static func site(_ line: UInt?, live: Int) -> SiteStats {
        SiteStats(
            site: line.map { SourceLocation(fileID: "App/Screen.swift", line: $0) },
            mailType: line == nil ? nil : TypeIdentity(Parcel.self), live: live, liveBlocks: 0,
            registered: UInt64(live), unregistered: 0, pruned: 0, history: [])
    }

    static func snapshot(
        mailTypes: [MailTypeStats] = [], sites: [SiteStats] = [], findings: [Finding] = [], memory: Int = 0
    ) -> MonitorSnapshot {
        let totals = TrafficTotals(
            posts: mailTypes.reduce(0) { $0 + $1.posts }, deliveries: mailTypes.reduce(0) { $0 + $1.deliveries },
            skipped: mailTypes.reduce(0) { $0 + $1.skipped }, pruned: mailTypes.reduce(0) { $0 + $1.pruned },
            recipientsAlive: mailTypes.reduce(0) { $0 + $1.recipients.total }, postsPerSecond: 0,
            deliveriesPerSecond: 0, prunesPerSecond: 0, postsHistory: [], deliveriesHistory: [], prunesHistory: [])
        return MonitorSnapshot(
            time: 0, uptime: 0, totals: totals, mailTypes: mailTypes, handlerLatency: .empty, queueWait: .empty,
            queues: [], sites: sites, recentPrunes: [], findings: findings, recipients: [:],
            estimatedMemoryBytes: memory)
    }
}
