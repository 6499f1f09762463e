import PonyExpress
import PonyExpressMonitor
import PonyTopModel

extension Report {
    /// Builds the report of a run from its last monitor snapshot and its findings log alone: the rows are filled from
    /// the snapshot and `PonyTopModel`'s rows, in its `DefaultOrder` (the panes' orders before the user sorts), and
    /// nothing of the screen is made.
    ///
    /// - Parameters:
    ///   - snapshot: The monitor's snapshot at the end of the run.
    ///   - log: Every finding seen during the run; `snapshot` is recorded into it.
    ///   - first: The run's first snapshot. For an attached app, whose monitor was counting before the run began, and
    ///     a recording (whose first snapshot came after its monitor began counting), the counts become deltas from
    ///     it, with the monitor's own beside them as `app_lifetime`: every report's totals cover its run's window.
    ///     Ignored for a scenario, whose run is its monitor's lifetime.
    ///   - source: What it watched.
    ///   - durationSeconds: How long it ran.
    ///   - rate: The scenario's rate factor; ignored for an app or a recording.
    ///   - seed: The scenario's seed; ignored for an app or a recording.
    ///   - interruptedBy: The signal that cut the run short, such as `SIGINT`; `nil` for a whole run.
    package init(
        snapshot: MonitorSnapshot, log: FindingLog = FindingLog(), first: MonitorSnapshot? = nil, source: Source,
        durationSeconds: Double, rate: Double, seed: UInt64, interruptedBy: String? = nil
    ) {
        schemaVersion = Self.currentSchemaVersion
        partial = interruptedBy != nil
        self.interruptedBy = Nullable(interruptedBy)
        tool = ToolVersion.named
        self.source = source
        let isScenario = source.kind == .scenario
        scenario = Nullable(isScenario ? source.name : nil)
        self.durationSeconds = durationSeconds
        self.rate = Nullable(isScenario ? rate : nil)
        self.seed = Nullable(isScenario ? seed : nil)
        let baseline = source.kind == .scenario ? nil : first
        totals = Self.totals(of: snapshot, since: baseline)
        let now = snapshot.time
        let firstTypes = Dictionary(
            (baseline?.mailTypes ?? []).map { ($0.mailType, $0) }, uniquingKeysWith: { earlier, _ in earlier })
        let stats = snapshot.mailTypes.map { stats in firstTypes[stats.mailType].map(stats.since) ?? stats }
        mailTypes = DefaultOrder.mailTypes(stats).map { stats in
            MailType(stats, sites: DefaultOrder.sites(SiteRow.rows(of: stats.mailType, in: snapshot)))
        }
        queues = DefaultOrder.queues(snapshot.queues).map(Queue.init)
        let groups = PruneGroupRow.group(snapshot.recentPrunes)
        prunes = DefaultOrder.pruneGroups(groups).map { group in
            PruneGroup(
                site: group.site.description, recipientType: Nullable(group.recipientType?.name),
                mailType: group.mailType.name,
                reason: group.reason.word, count: group.count,
                medianLifetimeSeconds: Double(group.medianLifetime) / 1e9,
                lastSecondsAgo: Double(now.elapsed(since: group.newestTime)) / 1e9)
        }
        var log = log
        log.record(snapshot)
        // Ranked as the findings pane ranks them: leaks first, oldest first within a category.
        findings = log.entries.sorted { lhs, rhs in
            FindingLog.Entry.ranksBefore(
                (lhs.finding.category, lhs.firstSeen, lhs.id), (rhs.finding.category, rhs.firstSeen, rhs.id))
        }.map { FindingEntry($0, now: now) }
    }

    /// The totals of `snapshot`, as deltas from `first` when given.
    private static func totals(of snapshot: MonitorSnapshot, since first: MonitorSnapshot?) -> Totals {
        let end = snapshot.totals
        let lifetime = Counts(posts: end.posts, deliveries: end.deliveries, skipped: end.skipped, pruned: end.pruned)
        var run = lifetime
        if let start = first?.totals {
            run = Counts(
                posts: end.posts.since(start.posts), deliveries: end.deliveries.since(start.deliveries),
                skipped: end.skipped.since(start.skipped), pruned: end.pruned.since(start.pruned))
        }
        return Totals(
            posts: run.posts, deliveries: run.deliveries, skipped: run.skipped, pruned: run.pruned, countsCover: "run",
            appLifetime: Nullable(first == nil ? nil : lifetime), recipients: end.recipientsAlive,
            postsPerSecond: finite(end.postsPerSecond), deliveriesPerSecond: finite(end.deliveriesPerSecond),
            prunesPerSecond: finite(end.prunesPerSecond))
    }
}

extension Report.FindingEntry {
    /// The entry of one finding of a run's log, its times counted back from `now`, the end of the run.
    init(_ entry: FindingLog.Entry, now: Nanoseconds) {
        let finding = entry.finding
        let state: State
        var retraction: String?
        switch entry.state {
        case .holding: state = .holding
        case .noLongerHolding: state = .noLongerHolding
        case .retracted(let reason):
            state = .retracted
            retraction = reason
        }
        self.init(
            kind: finding.kind.rawValue, category: finding.category.rawValue, mailType: finding.mailType.name,
            site: Nullable(finding.site?.description), subject: Nullable(finding.subject),
            file: Nullable(finding.site?.filePath), line: Nullable(finding.site.map { Int($0.line) }), state: state,
            retraction: Nullable(retraction), explanation: finding.explanation,
            evidence: finding.evidence.map(Report.EvidenceEntry.init),
            worstEvidence: entry.worst.evidence.map(Report.EvidenceEntry.init),
            firstSeenSecondsAgo: Double(now.elapsed(since: entry.firstSeen)) / 1e9,
            lastSeenSecondsAgo: Double(now.elapsed(since: entry.lastSeen)) / 1e9)
    }
}

extension Report.EvidenceEntry {
    init(_ evidence: Evidence) {
        self.init(
            name: evidence.name.rawValue, value: Report.finite(evidence.value), unit: evidence.unit.rawValue,
            text: evidence.formattedValue)
    }
}
