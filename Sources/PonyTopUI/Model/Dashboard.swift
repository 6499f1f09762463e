import PonyExpress

/// Everything one frame shows, taken from one monitor snapshot: the immutable input of drawing.
///
/// Build it from a `MonitorSnapshot` with ``init(snapshot:scenario:recipientsOf:)``; tests build it by hand.
package struct Dashboard: Equatable, Sendable {
    /// The scenario and its phase.
    package var scenario: ScenarioStatus
    /// Seconds since the monitor attached or was reset.
    package var uptime: Double
    /// Rates over the short window.
    package var postsPerSecond, deliveriesPerSecond, prunesPerSecond: Double
    /// Per-second rates, oldest first.
    package var postsHistory, deliveriesHistory, prunesHistory: [Double]
    /// Totals since start or reset.
    package var posts, deliveries, pruned: UInt64
    /// Live recipients of every mail type.
    package var recipientsAlive: Int
    /// Every mail type posted or registered, in the monitor's order.
    package var mailTypes: [MailTypeRow]
    /// Handler run times and queue waits of all mail types.
    package var handlerLatency, queueWait: LatencyDistribution
    /// The most recent prunes, newest first.
    package var recentPrunes: [PruneRow]
    /// Findings, newest first.
    package var findings: [FindingRow]
    /// The mail type whose ``recipients`` are filled in, if any.
    package var recipientsMailType: TypeIdentity?
    /// The recipients of ``recipientsMailType``, in registration order.
    package var recipients: [RecipientRow]

    /// Creates a dashboard.
    package init(
        scenario: ScenarioStatus, uptime: Double, postsPerSecond: Double, deliveriesPerSecond: Double,
        prunesPerSecond: Double, postsHistory: [Double], deliveriesHistory: [Double], prunesHistory: [Double],
        posts: UInt64, deliveries: UInt64, pruned: UInt64, recipientsAlive: Int, mailTypes: [MailTypeRow],
        handlerLatency: LatencyDistribution, queueWait: LatencyDistribution, recentPrunes: [PruneRow],
        findings: [FindingRow], recipientsMailType: TypeIdentity?, recipients: [RecipientRow]
    ) {
        self.scenario = scenario
        self.uptime = uptime
        self.postsPerSecond = postsPerSecond
        self.deliveriesPerSecond = deliveriesPerSecond
        self.prunesPerSecond = prunesPerSecond
        self.postsHistory = postsHistory
        self.deliveriesHistory = deliveriesHistory
        self.prunesHistory = prunesHistory
        self.posts = posts
        self.deliveries = deliveries
        self.pruned = pruned
        self.recipientsAlive = recipientsAlive
        self.mailTypes = mailTypes
        self.handlerLatency = handlerLatency
        self.queueWait = queueWait
        self.recentPrunes = recentPrunes
        self.findings = findings
        self.recipientsMailType = recipientsMailType
        self.recipients = recipients
    }

    /// The row of a mail type.
    package func row(for mailType: TypeIdentity) -> MailTypeRow? {
        mailTypes.first { $0.mailType == mailType }
    }
}
