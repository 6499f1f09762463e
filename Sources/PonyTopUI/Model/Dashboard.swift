import PonyExpress
import PonyExpressMonitor
import PonyTopModel

/// Everything one frame shows, taken from one monitor snapshot: the immutable input of drawing.
///
/// Build it from a `MonitorSnapshot` with ``init(snapshot:status:state:)``; tests build it by hand.
package struct Dashboard: Equatable, Sendable {
    /// The scenario and its phase.
    package var status: SourceStatus
    /// Seconds since the monitor attached or was reset.
    package var uptime: Double
    /// Rates over the short window.
    package var postsPerSecond, deliveriesPerSecond, prunesPerSecond: Double
    /// Per-second rates, oldest first.
    package var postsHistory, deliveriesHistory, prunesHistory: [Double]
    /// Totals since start or reset.
    package var posts, deliveries, pruned: UInt64
    /// Live recipients of every mail type.
    package var recipients: Int
    /// Every mail type posted or registered, in the monitor's order.
    package var mailTypes: [MailTypeStats]
    /// Handler run times and queue waits of all mail types.
    package var handlerLatency, queueWait: LatencySummary
    /// Every queue that delivered mail.
    package var queues: [QueueStats]
    /// When the snapshot was taken, on the monitor's clock: what the ages of prunes are counted back from.
    package var time: Nanoseconds
    /// The most recent prunes, newest first.
    package var prunes: [PruneRecord]
    /// Findings, in the monitor's order (newest first), each with where it stands in the session's log; panes and
    /// reports show them ``FindingLog/Entry/ranked(_:)``.
    package var findings: [FindingLog.Entry]
    /// The mail type whose ``sites`` are filled in, if any.
    package var sitesMailType: TypeIdentity?
    /// The registration sites of every recipient of ``sitesMailType``: those registered for it and those registered
    /// for one of its superclasses.
    package var sites: [SiteRow]

    /// Creates a dashboard.
    package init(
        status: SourceStatus, uptime: Double = 0, postsPerSecond: Double = 0, deliveriesPerSecond: Double = 0,
        prunesPerSecond: Double = 0, postsHistory: [Double] = [], deliveriesHistory: [Double] = [],
        prunesHistory: [Double] = [], posts: UInt64 = 0, deliveries: UInt64 = 0, pruned: UInt64 = 0,
        recipients: Int = 0, mailTypes: [MailTypeStats] = [], handlerLatency: LatencySummary = .empty,
        queueWait: LatencySummary = .empty, queues: [QueueStats] = [], time: Nanoseconds = 0,
        prunes: [PruneRecord] = [],
        findings: [FindingLog.Entry] = [], sitesMailType: TypeIdentity? = nil, sites: [SiteRow] = []
    ) {
        self.status = status
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
        self.recipients = recipients
        self.mailTypes = mailTypes
        self.handlerLatency = handlerLatency
        self.queueWait = queueWait
        self.queues = queues
        self.time = time
        self.prunes = prunes
        self.findings = findings
        self.sitesMailType = sitesMailType
        self.sites = sites
    }

    /// Builds a frame's dashboard from a monitor snapshot, with the sites of the mail type the state shows.
    ///
    /// - Parameters:
    ///   - snapshot: What the monitor knows.
    ///   - status: What the header says of the source: a scenario, an attached app or a replay.
    ///   - state: The app state, to know whose recipients to gather (the drilled-into or selected mail type).
    ///   - log: The findings seen since the session began or was reset; `nil` for the snapshot's findings alone.
    package init(snapshot: MonitorSnapshot, status: SourceStatus, state: AppState, log: FindingLog? = nil) {
        let totals = snapshot.totals
        let now = snapshot.time
        self.init(
            status: status, uptime: Double(snapshot.uptime) / 1e9, postsPerSecond: totals.postsPerSecond,
            deliveriesPerSecond: totals.deliveriesPerSecond, prunesPerSecond: totals.prunesPerSecond,
            postsHistory: totals.postsHistory, deliveriesHistory: totals.deliveriesHistory,
            prunesHistory: totals.prunesHistory, posts: totals.posts, deliveries: totals.deliveries,
            pruned: totals.pruned, recipients: totals.recipientsAlive,
            mailTypes: snapshot.mailTypes, handlerLatency: snapshot.handlerLatency,
            queueWait: snapshot.queueWait, queues: snapshot.queues,
            time: now, prunes: snapshot.recentPrunes,
            findings: log?.entries ?? snapshot.findings.map(FindingLog.Entry.init(holding:)))
        if let mailType = state.focusedMailType(in: self) {
            sitesMailType = mailType
            sites = SiteRow.rows(of: mailType, in: snapshot)
        }
    }

    /// The row of a mail type.
    package func row(for mailType: TypeIdentity) -> MailTypeStats? {
        mailTypes.first { $0.mailType == mailType }
    }

    /// The mail types that have `mailType` among their superclasses: their mail reaches its recipients too.
    package func subclasses(of mailType: TypeIdentity) -> [MailTypeStats] {
        mailTypes.filter { $0.superclasses.contains(mailType) }
    }
}
