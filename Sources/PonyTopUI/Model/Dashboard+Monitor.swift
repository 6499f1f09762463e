import PonyExpress
import PonyExpressMonitor
import PonyScenarios

extension Dashboard {
    /// Builds a frame's dashboard from a monitor snapshot, with the recipients of the mail type the state shows.
    ///
    /// - Parameters:
    ///   - snapshot: What the monitor knows.
    ///   - scenario: The scenario's status.
    ///   - state: The app state, to know whose recipients to fetch (the drilled-into or selected mail type).
    package init(snapshot: MonitorSnapshot, scenario: ScenarioStatus, state: AppState) {
        let totals = snapshot.totals
        self.init(
            scenario: scenario, uptime: Double(snapshot.uptime) / 1e9, postsPerSecond: totals.postsPerSecond,
            deliveriesPerSecond: totals.deliveriesPerSecond, prunesPerSecond: totals.prunesPerSecond,
            postsHistory: totals.postsHistory, deliveriesHistory: totals.deliveriesHistory,
            prunesHistory: totals.prunesHistory, posts: totals.posts, deliveries: totals.deliveries,
            pruned: totals.pruned, recipientsAlive: totals.recipientsAlive,
            mailTypes: snapshot.mailTypes.map(MailTypeRow.init),
            handlerLatency: LatencyDistribution(snapshot.handlerLatency),
            queueWait: LatencyDistribution(snapshot.queueWait), recentPrunes: snapshot.recentPrunes.map(PruneRow.init),
            findings: snapshot.findings.map(FindingRow.init), recipientsMailType: nil, recipients: [])
        if let mailType = state.focusedMailType(in: state.visibleMailTypes(in: self)) {
            recipientsMailType = mailType
            recipients = snapshot.recipients(of: mailType).map(RecipientRow.init)
        }
    }
}

extension ScenarioStatus {
    /// The status of a running scenario.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - progress: The runner's progress.
    package init(name: String, progress: ScenarioProgress) {
        self.init(
            name: name, phase: progress.phaseName, phaseIndex: progress.phaseIndex, phaseCount: progress.phaseCount,
            isPaused: progress.isPaused, isFinished: progress.isFinished)
    }
}

extension LatencyDistribution {
    /// The distribution of a monitor's latency summary.
    package init(_ summary: LatencySummary) {
        self.init(
            count: summary.count, p50: summary.p50, p90: summary.p90, p99: summary.p99, max: summary.max,
            buckets: summary.buckets.map { Bucket(upperBound: $0.upperBound, count: $0.count) })
    }
}

extension MailTypeRow {
    /// The row of a mail type's statistics.
    package init(_ stats: MailTypeStats) {
        self.init(
            mailType: stats.mailType, posts: stats.posts, deliveries: stats.deliveries, pruned: stats.pruned,
            postsPerSecond: stats.postsPerSecond, deliveriesPerSecond: stats.deliveriesPerSecond,
            recipients: stats.recipients.total, handlerLatency: LatencyDistribution(stats.handlerLatency),
            queueWait: LatencyDistribution(stats.queueWait), history: stats.history)
    }
}

extension RecipientRow {
    /// The row of one recipient's statistics.
    package init(_ stats: RecipientStats) {
        let info = stats.info
        let sender =
            switch info.sender {
            case .any: "any"
            case .optional(let type): type.name + "?"
            case .required(let type): type.name
            case .exact(let type): "=" + type.name
            }
        self.init(
            kind: info.kind.objectType == nil ? "block" : "object", objectType: info.kind.objectType?.name,
            queue: info.queueLabel, sender: sender, site: info.site.description, deliveries: stats.deliveries,
            isDuplicate: stats.isDuplicate)
    }
}

extension PruneRow {
    /// The row of one prune.
    package init(_ record: PruneRecord) {
        self.init(
            recipientType: record.recipientType?.name, mailType: record.mailType, site: record.site.description,
            lifetime: record.lifetime, reason: record.reason == .recipientReleased ? "recipient" : "sender")
    }
}

extension FindingRow {
    /// The row of one finding.
    package init(_ finding: Finding) {
        self.init(
            kind: finding.kind.rawValue, category: finding.category.rawValue, mailType: finding.mailType,
            site: finding.site?.description, explanation: finding.explanation)
    }
}
