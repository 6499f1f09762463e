import PonyExpress
import PonyExpressMonitor

extension SiteRow {
    /// The site rows of every registration that receives `mailType`, its own and its superclasses', grouped by site,
    /// registered type, kind, object type, queue and sender filter, in the monitor's order.
    package static func rows(of mailType: TypeIdentity, in snapshot: MonitorSnapshot) -> [SiteRow] {
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
            var row = SiteRow(
                site: info.site, registeredFor: info.mailType.name, isInherited: receiver.isInherited,
                kind: info.kind, queue: info.queueLabel, sender: info.sender, recipients: 0, deliveries: 0)
            let key = row.key
            if sites[key] == nil {
                let stats = siteStats[SiteKey(info)]
                row.growth10s = stats?.growthLast10Seconds
                row.growth1m = stats?.growthLastMinute
                row.scopes = stats?.scopes ?? []
                row.queueWaitP99 = info.queueLabel.flatMap { waits[$0] }.flatMap { $0.count == 0 ? nil : $0.p99 }
                sites[key] = row
                order.append(key)
            }
            sites[key]!.recipients += 1
            sites[key]!.deliveries += receiver.deliveries
            sites[key]!.oldestAge = max(
                sites[key]!.oldestAge ?? 0, now.elapsed(since: info.registeredAt))
            sites[key]!.registrations.append(receiver)
        }
        return order.compactMap { sites[$0] }
    }
}
