import PonyExpress
import PonyExpressMonitor

/// The values of every time series that one snapshot gives: counters as the snapshot's running totals, gauges as
/// they are now. ``MetricsPublisher`` turns the counters into increments.
///
/// Mail types are labelled by their name; two types of one name in different modules share a series (counters and
/// live recipients add up, a percentile keeps the larger of the two).
package struct MetricFigures: Sendable {
    /// The quantile labels published and the percentiles of `summary` they stand for; `1` is the largest duration.
    package static func quantiles(of summary: LatencySummary) -> [(label: String, nanoseconds: Nanoseconds)] {
        [
            ("0.5", summary.p50), ("0.9", summary.p90), ("0.99", summary.p99), ("0.999", summary.p999),
            ("1", summary.max),
        ]
    }

    /// Running totals since the monitor was attached or reset.
    package private(set) var counters: [MetricKey: UInt64] = [:]
    /// Values now.
    package private(set) var gauges: [MetricKey: Double] = [:]

    /// The figures of `snapshot`.
    ///
    /// - Parameters:
    ///   - snapshot: The monitor's snapshot.
    ///   - siteLimit: How many registration sites get a series of their own, those with the most live
    ///     registrations; the others are summed under ``MetricName/otherSites``.
    package init(_ snapshot: MonitorSnapshot, siteLimit: Int) {
        for stats in snapshot.mailTypes {
            let mailType = [MetricKey.Label(MetricName.mailTypeLabel, stats.mailType.name)]
            counters[MetricKey(MetricName.posts, mailType), default: 0] += stats.posts
            counters[MetricKey(MetricName.deliveries, mailType), default: 0] += stats.deliveries
            counters[MetricKey(MetricName.skips, mailType), default: 0] += stats.skipped
            counters[MetricKey(MetricName.prunes, mailType), default: 0] += stats.pruned
            gauges[MetricKey(MetricName.liveRecipients, mailType), default: 0] += Double(stats.recipients.total)
            addQuantiles(MetricName.handlerSeconds, of: stats.handlerLatency, labels: mailType)
            addQuantiles(MetricName.queueWaitSeconds, of: stats.queueWait, labels: mailType)
            if let relay = stats.relay { addRelay(relay, labels: mailType) }
        }
        addSites(snapshot.sites, limit: siteLimit)
        for kind in Finding.Kind.allCases {
            gauges[MetricKey(MetricName.findings, [MetricKey.Label(MetricName.kindLabel, kind.rawValue)])] = 0
        }
        for finding in snapshot.findings {
            gauges[
                MetricKey(MetricName.findings, [MetricKey.Label(MetricName.kindLabel, finding.kind.rawValue)]),
                default: 0] += 1
        }
        gauges[MetricKey(MetricName.monitorMemoryBytes)] = Double(snapshot.estimatedMemoryBytes)
    }

    /// A shared mail type's relay counts, and its lag percentiles once mail arrived.
    private mutating func addRelay(_ relay: RelayFigures, labels: [MetricKey.Label]) {
        counters[MetricKey(MetricName.relaySent, labels), default: 0] += relay.sent
        counters[MetricKey(MetricName.relayReceived, labels), default: 0] += relay.received
        counters[MetricKey(MetricName.relayDropped, labels), default: 0] += relay.dropped
        guard relay.lagSamples > 0 else { return }
        for (label, lag) in [("0.5", relay.lagP50), ("0.99", relay.lagP99)] {
            let key = MetricKey(MetricName.relayLagSeconds, labels + [MetricKey.Label(MetricName.quantileLabel, label)])
            gauges[key] = max(gauges[key] ?? 0, Double(lag) / 1e9)
        }
    }

    /// Percentiles in seconds, for a summary that recorded anything.
    private mutating func addQuantiles(_ name: String, of summary: LatencySummary, labels: [MetricKey.Label]) {
        guard summary.count > 0 else { return }
        for quantile in Self.quantiles(of: summary) {
            let key = MetricKey(name, labels + [MetricKey.Label(MetricName.quantileLabel, quantile.label)])
            let seconds = Double(quantile.nanoseconds) / 1e9
            gauges[key] = max(gauges[key] ?? 0, seconds)
        }
    }

    /// Live registrations of the `limit` sites with the most, and of the rest summed (the monitor's own "other"
    /// bucket included). Sites with none live get no series.
    private mutating func addSites(_ sites: [SiteStats], limit: Int) {
        let named = sites.filter { $0.site != nil && $0.live > 0 }.sorted { $0.live > $1.live }
        for stats in named.prefix(limit) {
            guard let site = stats.site else { continue }
            let labels = [
                MetricKey.Label(MetricName.siteLabel, site.description),
                MetricKey.Label(MetricName.mailTypeLabel, stats.mailType?.name ?? MetricName.otherSites),
            ]
            gauges[MetricKey(MetricName.siteLiveRecipients, labels), default: 0] += Double(stats.live)
        }
        let rest =
            named.dropFirst(limit).reduce(0) { $0 + $1.live }
            + sites.filter { $0.site == nil }.reduce(0) {
                $0 + $1.live
            }
        let other = [
            MetricKey.Label(MetricName.siteLabel, MetricName.otherSites),
            MetricKey.Label(MetricName.mailTypeLabel, MetricName.otherSites),
        ]
        gauges[MetricKey(MetricName.siteLiveRecipients, other)] = Double(rest)
    }
}
