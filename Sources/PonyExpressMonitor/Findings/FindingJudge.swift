import PonyExpress

/// One consumer's judgment of a monitor's figures: the rules it applies, their thresholds, and what it remembers from
/// one snapshot to the next (when each finding was first seen, the leaks that still stand, those taken back).
///
/// Each consumer of a monitor keeps a judge of its own (``PostOfficeMonitor/makeJudge()``) and passes it to
/// ``PostOfficeMonitor/snapshot(judgedBy:)``, so that one consumer's rules, cadence and resets never move another's
/// findings: the agent keeps one per attached viewer (with that viewer's options over the app's settings), the
/// finding logger and the metrics publisher one each.
///
/// ```swift
/// var strict = RuleOverrides()
/// try strict.set("oversubscribed.threshold", to: 10)
/// let judge = try monitor.makeJudge(overriding: strict)
/// let findings = monitor.snapshot(judgedBy: judge).findings
/// ```
///
/// A judge is safe to share, but its memory is one consumer's: two consumers that share one see each other's
/// cadence (a finding's "no longer holds" depends on how often it is asked).
public final class FindingJudge: Sendable {
    /// The monitor's settings with the judge's rules and thresholds.
    public let settings: MonitorSettings
    /// The rules the settings turn on.
    let rules: [any FindingRule]
    /// The monitor's first sightings, shared by its judges.
    private let ledger: SightingLedger
    /// Each rule's parameters, as text: judges share a sighting only when they judge its kind alike.
    private let parametersByKind: [Finding.Kind: String]
    private let state = Locked(State())

    private struct State {
        var memory = FindingMemory()
        /// No finding is dated before this: the first judgment after a reset.
        var notBefore: Nanoseconds = 0
        var resetPending = false
        /// Whether it judged facts gathered elsewhere yet: the first ones date their findings from their history.
        var hasJudgedFacts = false
        /// What the findings of the first facts judged say about their date while they hold: that they held before
        /// the history those facts carry, or that nothing the app records dates them.
        var notes: [String: String] = [:]
    }

    /// A judge with the rules and thresholds of `settings` (already clamped by the monitor), dating findings from
    /// the first sightings in `ledger`.
    init(settings: MonitorSettings, ledger: SightingLedger) {
        self.settings = settings
        self.ledger = ledger
        rules = FindingRules.enabled(by: settings)
        var parametersByKind: [Finding.Kind: String] = [:]
        for rule in FindingRules.all {
            parametersByKind[rule.kind] = rule.parameters.map { "\($0.key)=\(settings[$0])" }.joined(separator: ",")
        }
        self.parametersByKind = parametersByKind
    }

    /// Forgets every finding: what a viewer's reset asks of its own judge. Those that still hold come back dated
    /// from the next judgment; the monitor's counters and every other judge are untouched.
    public func reset() {
        state.withLock {
            $0.memory.removeAll()
            $0.resetPending = true
        }
    }

    /// Forgets every finding, with no date before which findings may not be: when the monitor clears its sightings
    /// too (attach, the app's own reset).
    func forget() {
        state.withLock { $0 = State() }
    }

    /// Applies the rules to `facts` gathered by this judge's monitor, and advances the memory. A finding is dated from
    /// its first sighting by any judge of the monitor that judges its kind alike (``SightingLedger``), or from this
    /// judge's last reset if later.
    /// Its first judgment dates what it raises from the history the facts carry, as a judge of facts from elsewhere
    /// does (``judge(_:datingFrom:)``): an app's consumer started late sees how long a finding has held.
    func judgeInMonitor(_ facts: RuleFacts) -> (holding: [Finding], retracted: [Finding]) {
        let raised = raise(facts)
        let history = firstHistory(of: raised, in: facts)
        return state.withLock { state in
            if state.resetPending {
                state.resetPending = false
                state.notBefore = facts.time
            }
            let notBefore = state.notBefore
            let judged = state.memory.judge(raised, facts: facts) { finding in
                let key = finding.id + "|" + (parametersByKind[finding.kind] ?? "")
                let seen = Swift.min(history?.dates[finding.id] ?? facts.time, facts.time)
                return Swift.max(ledger.sighted(key, at: seen), notBefore)
            }
            Self.begin(&state, with: history, facts: facts, judged: judged.holding)
            return Self.sayingHowDated(judged, &state)
        }
    }

    /// Notes, at the first judgment, what its findings must say about their dates: those that held before the
    /// history its facts carry, and those nothing the app records dates that were not dated earlier (by a recording,
    /// another judge of the app) either.
    private static func begin(
        _ state: inout State, with history: HistoryDates?, facts: RuleFacts, judged: [Finding]
    ) {
        guard let history, !state.hasJudgedFacts else { return }
        state.hasJudgedFacts = true
        for (id, seconds) in history.beforeHistory {
            state.notes[id] =
                "; it held before the \(seconds) s of history the app keeps began, so it is older than it is dated"
        }
        let seconds = facts.second
        for finding in judged where history.undated.contains(finding.id) && finding.firstSeen >= facts.time {
            state.notes[finding.id] =
                "; it held when first judged here, \(seconds) s after the app's monitor started, and the app records "
                + "nothing that dates it, so it may be older than it is dated"
        }
    }

    /// `judged`, each finding with a note on its date (``begin(_:with:facts:judged:)``) saying it while it holds.
    private static func sayingHowDated(
        _ judged: (holding: [Finding], retracted: [Finding]), _ state: inout State
    ) -> (holding: [Finding], retracted: [Finding]) {
        guard !state.notes.isEmpty else { return judged }
        let holding = Set(judged.holding.map(\.id))
        state.notes = state.notes.filter { holding.contains($0.key) }
        let notes = state.notes
        let said = judged.holding.map { finding in
            notes[finding.id].map { finding.with(explanation: finding.explanation + $0) } ?? finding
        }
        return (said, judged.retracted)
    }

    /// The dates from history of what the first facts this judge judges raise; `nil` once it judged some.
    private func firstHistory(
        of raised: [(rule: any FindingRule, finding: Finding)], in facts: RuleFacts
    ) -> HistoryDates? {
        guard !state.withLock({ $0.hasJudgedFacts }) else { return nil }
        return HistoryDates(of: raised.map(\.finding), in: facts) { past in rules.flatMap { $0.judge(past) } }
    }

    /// What each rule raises from `facts`.
    private func raise(_ facts: RuleFacts) -> [(rule: any FindingRule, finding: Finding)] {
        rules.flatMap { rule in rule.judge(facts).map { (rule: rule, finding: $0) } }
    }
}

extension PostOfficeMonitor {
    /// A judge with this monitor's own rules and thresholds, and a memory of its own.
    public func makeJudge() -> FindingJudge {
        FindingJudge(settings: settings, ledger: sightings)
    }

    /// A judge with this monitor's rules and thresholds, and `overrides` over them.
    ///
    /// The windows and the stall bound are what the monitor records, so they are checked against it: a rule's window
    /// may not be longer than the seconds the monitor keeps, and `stalledQueue.wait` (the wait at which the monitor
    /// counts a queued delivery as stalled) may not differ from the monitor's.
    ///
    /// - Parameter overrides: The rules to turn off or on and the parameters to set.
    /// - Returns: A new judge with an empty memory.
    /// - Throws: ``MonitorSettingsError`` naming the parameter, its value and what this monitor accepts.
    public func makeJudge(overriding overrides: RuleOverrides) throws(MonitorSettingsError) -> FindingJudge {
        var judged = settings
        try judged.apply(overrides)
        let stallWait = settings[StalledQueueRule.wait]
        if judged[StalledQueueRule.wait] != stallWait {
            throw MonitorSettingsError(
                setting: StalledQueueRule.wait.name, value: RuleParameter.format(judged[StalledQueueRule.wait]),
                expected:
                    "this app's own \(RuleParameter.format(stallWait)) s: the app counts a queued delivery as stalled "
                    + "at that wait as it records (its MonitorSettings.stalledQueueWait)")
        }
        let kept = ringCapacity - 2
        for rule in FindingRules.types where judged.isEnabled(rule.kind) {
            let window = rule.window(judged)
            guard window > Double(kept) else { continue }
            let parameter = rule.info.parameters.first { $0.unit == .seconds && judged[$0] == window }
            throw MonitorSettingsError(
                setting: parameter?.name ?? "\(rule.kind.rawValue) window", value: RuleParameter.format(window),
                expected:
                    "at most \(kept) s, the history this app's monitor keeps (its MonitorSettings.historyLength)")
        }
        return FindingJudge(settings: judged, ledger: sightings)
    }
}

extension FindingJudge {
    /// The kinds a judge finds from `facts`: every rule's, but ``Finding/Kind/growingRegistrations`` for facts gathered
    /// before wire protocol 1.8, which carry none of its facts (a replay keeps those leaks as recorded).
    ///
    /// - Parameter facts: Facts from a snapshot or a recording.
    public static func kindsJudged(from facts: RuleFacts) -> Set<Finding.Kind> {
        facts.leaks == nil ? allKinds.subtracting([.growingRegistrations]) : allKinds
    }

    private static let allKinds = Set(FindingRules.all.map(\.kind))

    /// The least growth at which a snapshot judged by this judge must gather a site for the leak rule: its
    /// `minimumGrowth`, or none when that rule is off.
    var growthFloor: Int {
        settings.isEnabled(.growingRegistrations)
            ? Int(settings[GrowingRegistrationsRule.minimumGrowth]) : Int.max
    }

    /// A judge of facts gathered elsewhere (a recording's), away from any monitor, with the rules and thresholds of
    /// `settings` and a memory of its own: what `ponytop --replay` judges a recording with.
    ///
    /// - Parameter settings: The rules and thresholds to judge with.
    public convenience init(judgingFactsWith settings: MonitorSettings) {
        self.init(settings: settings.clamped(), ledger: SightingLedger())
    }

    /// The count of recipients above which a snapshot judged by this judge must count a mail type's living ones: its
    /// oversubscription threshold, or none when that rule is off.
    var livingCountFloor: Int {
        settings.isEnabled(.oversubscribed) ? Int(settings[OversubscribedRule.threshold]) : Int.max
    }

    /// The least thresholds the facts this judge judges must serve: what a viewer judging an app's facts itself asks
    /// its agent to gather them for.
    package var floors: RuleFacts.Floors {
        RuleFacts.Floors(livingCountedAbove: livingCountFloor, growthFloor: growthFloor)
    }

    /// Checks that these rules can judge `facts`: the stall bound is the one the app counted stalled deliveries at,
    /// no window is longer than the history the app kept, and the oversubscription threshold is not below the count
    /// above which the app counted living recipients.
    ///
    /// - Parameter facts: Facts from a snapshot or a recording.
    /// - Throws: ``MonitorSettingsError`` naming the parameter, its value and what the facts allow.
    public func validate(for facts: RuleFacts) throws(MonitorSettingsError) {
        if settings[StalledQueueRule.wait] != facts.stallWait {
            throw MonitorSettingsError(
                setting: StalledQueueRule.wait.name, value: RuleParameter.format(settings[StalledQueueRule.wait]),
                expected:
                    "the app's own \(RuleParameter.format(facts.stallWait)) s: it counted a queued delivery as "
                    + "stalled at that wait as it recorded")
        }
        if livingCountFloor < facts.livingCountedAbove {
            throw MonitorSettingsError(
                setting: OversubscribedRule.threshold.name, value: RuleParameter.format(Double(livingCountFloor)),
                expected:
                    "at least \(facts.livingCountedAbove), the count above which the app counted living recipients "
                    + "for these facts (a recording's facts count them all)")
        }
        if let leaks = facts.leaks, growthFloor < leaks.growthFloor {
            throw MonitorSettingsError(
                setting: GrowingRegistrationsRule.minimumGrowth.name,
                value: RuleParameter.format(Double(growthFloor)),
                expected:
                    "at least \(leaks.growthFloor), the growth at which the app gathered a site for these facts (a "
                    + "recording's facts gather every site that grew)")
        }
        for rule in FindingRules.types where settings.isEnabled(rule.kind) {
            let window = rule.window(settings)
            guard window > Double(facts.keptSeconds) else { continue }
            let parameter = rule.info.parameters.first { $0.unit == .seconds && settings[$0] == window }
            throw MonitorSettingsError(
                setting: parameter?.name ?? "\(rule.kind.rawValue) window", value: RuleParameter.format(window),
                expected: "at most \(facts.keptSeconds) s, the history the app's monitor kept (its historyLength)")
        }
    }

    /// Judges `facts` with this judge's rules, and advances its memory: a finding is dated from the first time this
    /// judge raised it, or from `earlier`'s date of the same finding if that is earlier (a recording's findings
    /// carry the app's first sightings, from before the recording began). The first facts a judge judges also date
    /// their findings from the app's history they carry: a stalled queue, a rising wait, a leak, a crowd or a site
    /// pruned fast is dated from the first second of the run of seconds, ending now, in which the rule raises it (so a
    /// viewer that attaches late sees how long it has held, not how long it has watched), and one that held across
    /// all that history says so. A duplicate registration and an outlived scope carry the app's own date; the slow
    /// recipient rule's facts keep no history (handler times since each recipient registered): its findings are
    /// dated from those first facts and say they may be older.
    ///
    /// - Parameters:
    ///   - facts: Facts from a snapshot or a recording, judged in the order they were gathered: a leak raised from
    ///     one snapshot's facts is held from the next ones'.
    ///   - earlier: Findings judged before, such as those recorded beside `facts`.
    /// - Returns: The findings that hold, newest first.
    public func judge(_ facts: RuleFacts, datingFrom earlier: [Finding] = []) -> [Finding] {
        judgeWithRetractions(facts, datingFrom: earlier).holding
    }

    /// Judges `facts` like ``judge(_:datingFrom:)``, and also returns the leaks this judge took back since its last
    /// reset, newest first.
    public func judgeWithRetractions(
        _ facts: RuleFacts, datingFrom earlier: [Finding] = []
    ) -> (holding: [Finding], retracted: [Finding]) {
        let raised = raise(facts)
        var dates = Dictionary(earlier.map { ($0.id, $0.firstSeen) }, uniquingKeysWith: Swift.min)
        let history = firstHistory(of: raised, in: facts)
        if let history { dates.merge(history.dates, uniquingKeysWith: Swift.min) }
        return state.withLock { state in
            let judged = state.memory.judge(raised, facts: facts) { finding in
                Swift.min(dates[finding.id] ?? facts.time, facts.time)
            }
            Self.begin(&state, with: history, facts: facts, judged: judged.holding)
            return Self.sayingHowDated(judged, &state)
        }
    }
}
