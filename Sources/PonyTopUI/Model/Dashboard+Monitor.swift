import PonyExpress
import PonyExpressMonitor

extension Dashboard {
    /// The sites of every registration that receives `mailType`, its own and its superclasses', grouped by site,
    /// registered type, kind, object type, queue and sender filter, in the monitor's order.
    package static func sites(of mailType: TypeIdentity, in snapshot: MonitorSnapshot) -> [SiteRow] {
        let now = snapshot.time
        var sites: [String: SiteRow] = [:]
        var order: [String] = []
        var siteStats: [SiteKey: SiteStats] = [:]
        for stats in snapshot.sites {
            guard let key = stats.key else { continue }
            siteStats[key] = stats
        }
        let waits = Dictionary(snapshot.queues.map { ($0.label, $0.wait) }, uniquingKeysWith: { first, _ in first })
        for receiver in snapshot.receivers(of: mailType) {
            let info = receiver.recipient.info
            var recipient = RecipientRow(receiver.recipient, now: now)
            recipient.deliveries = receiver.deliveries
            var row = SiteRow(
                site: recipient.site, registeredFor: info.mailType.name, isInherited: receiver.isInherited,
                kind: recipient.kind, queue: recipient.queue,
                sender: recipient.sender, recipients: 0, deliveries: 0)
            let key = row.key
            if sites[key] == nil {
                let stats = siteStats[SiteKey(info)]
                row.growth10s = stats?.growthLast10Seconds
                row.growth1m = stats?.growthLastMinute
                row.scopes = stats?.scopes ?? []
                row.queueWaitP99 = recipient.queue.flatMap { waits[$0] }.flatMap { $0.count == 0 ? nil : $0.p99 }
                sites[key] = row
                order.append(key)
            }
            sites[key]!.recipients += 1
            sites[key]!.deliveries += recipient.deliveries
            sites[key]!.oldestAge = max(sites[key]!.oldestAge ?? 0, recipient.age)
            sites[key]!.registrations.append(recipient)
        }
        return order.compactMap { sites[$0] }
    }
}

extension RecipientRow {
    /// The row of one registration's statistics.
    package init(_ stats: RecipientStats, now: Nanoseconds) {
        let info = stats.info
        self.init(
            id: info.id.rawValue, kind: info.kind, registeredFor: info.mailType.name, queue: info.queueLabel,
            sender: info.sender, site: info.site,
            age: now > info.registeredAt ? now - info.registeredAt : 0,
            deliveries: stats.deliveries, isDuplicate: stats.isDuplicate, markers: Self.markers(of: stats),
            requiredSender: info.requiredSender?.name)
    }

    /// `verified` for registrations of `VerifiedMail`, `once`, `replay` and `over limit` for registrations made so,
    /// how many times kept mail was replayed, and the scope it was made in (`scope GET /rooms/:room`).
    static func markers(of stats: RecipientStats) -> [String] {
        var markers: [String] = []
        if stats.info.isVerified { markers.append("verified") }
        if stats.info.isOnce { markers.append("once") }
        if stats.info.options.contains(.replay) { markers.append("replay") }
        if stats.info.isOverLimit { markers.append("over limit") }
        if stats.replays > 0 { markers.append(stats.replays == 1 ? "1 replay" : "\(stats.replays) replays") }
        if let scope = stats.info.scope { markers.append("scope \(scope.name)") }
        return markers
    }
}
