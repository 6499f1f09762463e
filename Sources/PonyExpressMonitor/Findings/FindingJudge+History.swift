import PonyExpress

/// When findings raised at a judge's first judgment began, read from the history the facts carry.
struct HistoryDates {
    /// When each finding began to hold without a break, as far back as the facts tell.
    var dates: [String: Nanoseconds] = [:]
    /// The findings that held already at the start of the app's kept history, with its length in seconds: they are
    /// dated from that start, and said to be older.
    var beforeHistory: [String: Int] = [:]
    /// The findings of an app that had run a while that nothing the app records can date (``canDate(_:in:)``): they
    /// are dated from these facts, and said to be maybe older.
    var undated: Set<String> = []

    /// The most series values a dating may copy: honest facts (a hundred queues of a minute's seconds, judged back a
    /// minute) take a few hundred thousand; facts crafted to be large stop early, dated from the earliest second
    /// reached, when they did hold.
    static let budget = 10_000_000

    /// Dates `findings`, raised from `facts`, by judging the facts as they stood one second earlier, then two, and
    /// so on while the finding is still raised (``RuleFacts/asOf(secondsAgo:)``): a finding is dated from the
    /// earliest second of the unbroken run of seconds that end now in which the rules raise it. The queue, leak,
    /// oversubscription and prune rules keep history; the others' findings are not dated here.
    ///
    /// - Parameter raise: The judge's rules, applied to facts.
    init(of findings: [Finding], in facts: RuleFacts, raise: (RuleFacts) -> [Finding]) {
        if facts.second > 1 { undated = Set(findings.filter { !Self.canDate($0, in: facts) }.map(\.id)) }
        var holding = Set(findings.filter { Self.keepsHistory($0.kind) }.map(\.id))
        guard !holding.isEmpty else { return }
        let subjects = Set(findings.compactMap(\.subject))
        var focused = facts
        focused.queues = facts.queues.filter { subjects.contains($0.label) }
        focused.leaks?.sites = facts.leaks?.sites.filter { subjects.contains($0.kind.name) } ?? []
        let cost =
            focused.queues.reduce(0) { $0 + $1.deliveries.count * 4 }
            + (focused.leaks?.sites.reduce(0) { $0 + $1.liveSeries.count + $1.registeredSeconds.count * 2 } ?? 0)
            + focused.crowds.reduce(0) { $0 + ($1.liveSeries?.count ?? 0) }
            + focused.prunes.reduce(0) { $0 + ($1.perSecond?.count ?? 0) * 2 }
        var spent = 0
        var secondsAgo = 1
        while !holding.isEmpty, spent <= Self.budget, let past = focused.asOf(secondsAgo: secondsAgo) {
            holding.formIntersection(raise(past).map(\.id))
            for id in holding { dates[id] = past.time }
            spent += cost
            secondsAgo += 1
        }
        // Held at the earliest second the history reaches, which is not the app's first: it began before.
        guard secondsAgo >= facts.keptSeconds, Int64(secondsAgo) <= facts.second else { return }
        for id in holding { beforeHistory[id] = facts.keptSeconds }
    }

    /// Whether what the app records can date `finding`: the rule gave the app's own date (a duplicate's second
    /// registration, a scope's end), or its facts carry the series this walk reads. Handler times are counted since
    /// each recipient registered, with no series: a slow recipient's start is not recorded.
    static func canDate(_ finding: Finding, in facts: RuleFacts) -> Bool {
        if finding.firstSeen > 0 { return true }
        switch finding.kind {
        case .stalledQueue, .risingQueueWait, .growingRegistrations:
            return true
        case .oversubscribed:
            return facts.crowds.first { $0.mailType == finding.mailType }?.liveSeries != nil
        case .highPruneRate:
            return facts.prunes.first { $0.mailType == finding.mailType && $0.site == finding.site }?.perSecond != nil
        default:
            return false
        }
    }

    private static func keepsHistory(_ kind: Finding.Kind) -> Bool {
        [.stalledQueue, .risingQueueWait, .growingRegistrations, .oversubscribed, .highPruneRate].contains(kind)
    }
}
