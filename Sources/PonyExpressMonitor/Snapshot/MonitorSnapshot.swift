import PonyExpress

/// Everything a ``PostOfficeMonitor`` knows at one instant, as an immutable value that any thread may read.
///
/// ```swift
/// let snapshot = monitor.snapshot()
/// print(snapshot.totals.postsPerSecond)
/// for finding in snapshot.findings { print(finding.explanation) }
/// ```
///
/// Counts run from the moment the monitor was attached or last reset; rates come from the monitor's clock.
/// The totals are the sums of the per-type figures of the same snapshot.
public struct MonitorSnapshot: Sendable, Codable {
    /// When it was taken, on the monitor's clock.
    public let time: Nanoseconds
    /// Time since the monitor was attached or reset.
    public let uptime: Nanoseconds
    /// Counts and rates over every mail type.
    public let totals: TrafficTotals
    /// Every mail type posted or registered, most deliveries first.
    public let mailTypes: [MailTypeStats]
    /// Handler durations over all mail types, of the timed deliveries (see
    /// ``MonitorSettings/handlerTimingInterval``): its count is how many were timed.
    public let handlerLatency: LatencySummary
    /// Waits before queued delivery over all mail types.
    public let queueWait: LatencySummary
    /// Every queue that delivered mail, by label.
    public let queues: [QueueStats]
    /// Registration sites, most live registrations first; the "other" bucket (site `nil`) gathers the sites beyond
    /// ``MonitorSettings/siteCapacity``.
    public let sites: [SiteStats]
    /// The most recent prunes, newest first, at most ``MonitorSettings/pruneLogCapacity``.
    public let recentPrunes: [PruneRecord]
    /// What looks wrong, newest first.
    public private(set) var findings: [Finding]
    /// The findings the monitor took back since it attached or was reset, each with its
    /// ``Finding/retraction``: leaks whose registrations ended. Newest first.
    public var retractedFindings: [Finding] { retracted ?? [] }
    /// The monitor's own memory, estimated from the sizes of its tables, rings and histograms.
    public let estimatedMemoryBytes: Int
    /// What the rules judged, without thresholds, for a consumer that judges again with its own
    /// (``FindingJudge/judge(_:datingFrom:)``): a monitor's snapshots carry them; a snapshot from an agent carries them
    /// when its viewer asked (a recording's, since wire 1.7), `nil` otherwise.
    public private(set) var ruleFacts: RuleFacts?

    private var recipientIndex: RecipientIndex
    /// Optional so that snapshots recorded before it existed still decode.
    private var retracted: [Finding]?

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - time: When it was taken.
    ///   - uptime: Time since attach or reset.
    ///   - totals: Totals over every mail type.
    ///   - mailTypes: Per-type statistics.
    ///   - handlerLatency: Handler durations over all types.
    ///   - queueWait: Queue waits over all types.
    ///   - queues: Per-queue statistics.
    ///   - sites: Per-site statistics.
    ///   - recentPrunes: Recent prunes, newest first.
    ///   - findings: Findings, newest first.
    ///   - retractedFindings: Findings taken back, newest first.
    ///   - recipients: Live recipients by mail type, in registration order.
    ///   - estimatedMemoryBytes: The monitor's estimated memory.
    ///   - ruleFacts: What its rules judged, without thresholds; `nil` for none.
    public init(
        time: Nanoseconds, uptime: Nanoseconds, totals: TrafficTotals, mailTypes: [MailTypeStats],
        handlerLatency: LatencySummary, queueWait: LatencySummary, queues: [QueueStats], sites: [SiteStats],
        recentPrunes: [PruneRecord], findings: [Finding], retractedFindings: [Finding] = [],
        recipients: [TypeIdentity: [RecipientStats]], estimatedMemoryBytes: Int, ruleFacts: RuleFacts? = nil
    ) {
        self.init(
            time: time, uptime: uptime, totals: totals, mailTypes: mailTypes, handlerLatency: handlerLatency,
            queueWait: queueWait, queues: queues, sites: sites, recentPrunes: recentPrunes, findings: findings,
            retractedFindings: retractedFindings, recipientIndex: RecipientIndex(byType: recipients),
            estimatedMemoryBytes: estimatedMemoryBytes, ruleFacts: ruleFacts)
    }

    /// Creates a snapshot around recipients already indexed.
    init(
        time: Nanoseconds, uptime: Nanoseconds, totals: TrafficTotals, mailTypes: [MailTypeStats],
        handlerLatency: LatencySummary, queueWait: LatencySummary, queues: [QueueStats], sites: [SiteStats],
        recentPrunes: [PruneRecord], findings: [Finding], retractedFindings: [Finding] = [],
        recipientIndex: RecipientIndex, estimatedMemoryBytes: Int, ruleFacts: RuleFacts? = nil
    ) {
        self.time = time
        self.uptime = uptime
        self.totals = totals
        self.mailTypes = mailTypes
        self.handlerLatency = handlerLatency
        self.queueWait = queueWait
        self.queues = queues
        self.sites = sites
        self.recentPrunes = recentPrunes
        self.findings = findings
        retracted = retractedFindings.isEmpty ? nil : retractedFindings
        self.recipientIndex = recipientIndex
        self.estimatedMemoryBytes = estimatedMemoryBytes
        self.ruleFacts = ruleFacts
    }

    /// The live recipients registered for `mailType`, in registration order.
    ///
    /// - Parameter mailType: The registered mail type.
    /// - Returns: Its recipients with their delivery counts, empty if it has none.
    public func recipients(of mailType: TypeIdentity) -> [RecipientStats] {
        Array(recipientIndex[mailType])
    }

    /// Drops the live recipients of every mail type but `mailTypes`: what a snapshot sent to another process
    /// carries, since the recipients of all types can be far more than a viewer shows at once.
    ///
    /// - Parameter mailTypes: The mail types whose recipients to keep.
    package mutating func keepRecipients(of mailTypes: some Sequence<TypeIdentity>) {
        var kept: [TypeIdentity: [RecipientStats]] = [:]
        for mailType in mailTypes where recipientIndex.ranges[mailType] != nil {
            kept[mailType] = Array(recipientIndex[mailType])
        }
        recipientIndex = RecipientIndex(byType: kept)
    }

    /// Drops the findings, held and retracted, of the rules `kinds`: a recording judged again without those rules
    /// (`ponytop --replay --allow KIND`).
    ///
    /// - Parameter kinds: The rules turned off.
    package mutating func dropFindings(of kinds: Set<Finding.Kind>) {
        guard !kinds.isEmpty else { return }
        findings.removeAll { kinds.contains($0.kind) }
        retracted?.removeAll { kinds.contains($0.kind) }
    }

    /// Drops the rule facts: what an agent sends a viewer that did not ask for them.
    package mutating func dropRuleFacts() {
        ruleFacts = nil
    }

    /// Replaces the findings of the rules `kinds`, held and retracted, with `judged`: a recording judged again with
    /// the replay's thresholds (`ponytop --replay --rule-setting`).
    ///
    /// - Parameters:
    ///   - kinds: The rules judged again.
    ///   - judged: Their findings now, newest first.
    ///   - taken: Their findings taken back.
    package mutating func replaceFindings(
        of kinds: Set<Finding.Kind>, with judged: [Finding], retracted taken: [Finding] = []
    ) {
        let newestFirst = { (lhs: Finding, rhs: Finding) in (lhs.firstSeen, rhs.id) > (rhs.firstSeen, lhs.id) }
        findings.removeAll { kinds.contains($0.kind) }
        findings = (findings + judged).sorted(by: newestFirst)
        let kept = (retracted ?? []).filter { !kinds.contains($0.kind) } + taken
        retracted = kept.isEmpty ? nil : kept.sorted(by: newestFirst)
    }

    /// The statistics of one mail type, if it was posted or registered.
    ///
    /// - Parameter mailType: The mail type.
    /// - Returns: Its statistics, or `nil`.
    public func stats(of mailType: TypeIdentity) -> MailTypeStats? {
        mailTypes.first { $0.mailType == mailType }
    }

    /// Every live registration that receives mail of `postedType`: those registered for it, then those registered
    /// for its superclasses (marked ``ReceiverStats/isInherited``), nearest superclass first, each with the
    /// deliveries of `postedType` it received.
    ///
    /// - Parameter postedType: A posted (dynamic) mail type.
    /// - Returns: Its receivers, in registration order within each registered type.
    public func receivers(of postedType: TypeIdentity) -> [ReceiverStats] {
        recipientIndex.receivers(of: postedType, superclasses: stats(of: postedType)?.superclasses ?? [])
    }

    /// The findings of one kind.
    ///
    /// - Parameter kind: The kind.
    /// - Returns: The findings of that kind, newest first.
    public func findings(of kind: Finding.Kind) -> [Finding] {
        findings.filter { $0.kind == kind }
    }
}
