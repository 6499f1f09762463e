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
    private let windowOf: @Sendable (MonitorSettings) -> Double

    init(
        kind: Finding.Kind, category: Finding.Category, summary: String, parameters: [RuleParameter],
        window: @escaping @Sendable (MonitorSettings) -> Double
    ) {
        self.kind = kind
        self.category = category
        self.summary = summary
        self.parameters = parameters
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
}
