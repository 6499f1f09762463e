/// What a finding rule is: its kind, category, meaning and settings, as `ponytop --list-rules` prints them.
public struct FindingRuleInfo: Sendable {
    /// What it reports.
    public let kind: Finding.Kind
    /// The family it belongs to.
    public let category: Finding.Category
    /// What a finding of this kind means, in one line.
    public let summary: String
    /// Its settings.
    public let parameters: [RuleParameter]
    /// The evidence whose largest value marks a finding of this kind at its worst; `nil` for its first piece.
    public let severity: Evidence.Name?
    private let windowOf: @Sendable (MonitorSettings) -> Double

    init(
        kind: Finding.Kind, category: Finding.Category, summary: String, parameters: [RuleParameter],
        severity: Evidence.Name?, window: @escaping @Sendable (MonitorSettings) -> Double
    ) {
        self.kind = kind
        self.category = category
        self.summary = summary
        self.parameters = parameters
        self.severity = severity
        windowOf = window
    }

    /// How many seconds it needs to watch to find everything it can with `settings`; 0 for a rule that judges the
    /// present alone.
    ///
    /// - Parameter settings: The monitor's settings.
    /// - Returns: Seconds.
    public func window(_ settings: MonitorSettings) -> Double {
        windowOf(settings)
    }

    /// How bad `finding` is, by ``severity``: the figure a run's findings log keeps the worst of.
    ///
    /// - Parameter finding: A finding of this rule's kind.
    /// - Returns: The value of its severity evidence (its first piece when the rule names none), or 0.
    public func severity(of finding: Finding) -> Double {
        let value = severity.flatMap { finding.evidence(named: $0) } ?? finding.evidence.first?.value ?? 0
        return value.isFinite ? value : 0
    }
}
