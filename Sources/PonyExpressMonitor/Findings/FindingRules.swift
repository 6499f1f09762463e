/// The rules the monitor applies at each snapshot.
///
/// ```swift
/// for rule in FindingRules.all {
///     print(rule.kind, rule.category, rule.summary)
/// }
/// ```
public enum FindingRules {
    /// Every rule, in the order their findings are judged. Adding a rule: one new type, one line here.
    static let types: [any FindingRule.Type] = [
        OversubscribedRule.self,
        DuplicateRegistrationRule.self,
        OutlivedScopeRule.self,
        GrowingRegistrationsRule.self,
        HighPruneRateRule.self,
        SlowRecipientRule.self,
        StalledQueueRule.self,
        RisingQueueWaitRule.self,
    ]

    /// Every rule: its kind, category, meaning and settings.
    public static let all: [FindingRuleInfo] = types.map { $0.info }

    /// The rule that reports `kind`, if any.
    ///
    /// - Parameter kind: A finding kind.
    /// - Returns: The rule, or `nil`.
    public static func rule(for kind: Finding.Kind) -> FindingRuleInfo? {
        all.first { $0.kind == kind }
    }

    /// Every rule parameter, rule by rule.
    public static var parameters: [RuleParameter] { all.flatMap(\.parameters) }

    /// The rules `settings` turns on, made with its values.
    static func enabled(by settings: MonitorSettings) -> [any FindingRule] {
        types.filter { settings.isEnabled($0.kind) }.map { $0.init(settings: settings) }
    }
}
