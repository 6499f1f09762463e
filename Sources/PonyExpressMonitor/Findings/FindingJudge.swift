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
    private let memory = Locked(FindingMemory())

    /// A judge with the rules and thresholds of `settings` (already clamped by the monitor).
    init(settings: MonitorSettings) {
        self.settings = settings
        rules = FindingRules.enabled(by: settings)
    }

    /// Forgets every finding: what a viewer's reset asks of its own judge. The monitor's counters are untouched.
    public func reset() {
        memory.withLock { $0.removeAll() }
    }

    /// Applies the rules to `input` and advances the memory.
    func judge(_ input: FindingInput) -> (holding: [Finding], retracted: [Finding]) {
        let raised = rules.flatMap { rule in rule.check(input).map { (rule: rule, finding: $0) } }
        return memory.withLock { $0.judge(raised, input: input, time: input.time) }
    }
}

extension PostOfficeMonitor {
    /// A judge with this monitor's own rules and thresholds, and a memory of its own.
    public func makeJudge() -> FindingJudge {
        FindingJudge(settings: settings)
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
        judged.disabledRules.formUnion(overrides.disabledRules)
        judged.disabledRules.subtract(overrides.enabledRules)
        for (name, value) in overrides.parameters.sorted(by: { $0.key < $1.key }) {
            try judged.setParameter(named: name, to: value)
        }
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
        return FindingJudge(settings: judged)
    }
}
