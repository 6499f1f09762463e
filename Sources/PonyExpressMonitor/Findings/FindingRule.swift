import PonyExpress

/// One rule: one kind of problem the monitor looks for, with its settings and the check that finds it.
///
/// A rule is a small value made from a judge's ``MonitorSettings``; the judge calls ``judge(_:)`` with the facts each
/// snapshot gathered (``RuleFacts``), in the app or far from it. The model is tokio-console's `Warn` trait: one type
/// per lint.
/// To add one, write a type that conforms (see `StalledQueueRule` for a short one) and list it in
/// ``FindingRules/types``; the WhatTheMonitorFinds article in the catalog walks through it.
protocol FindingRule: Sendable {
    /// What it reports, and its name on the command line (`--allow KIND`).
    static var kind: Finding.Kind { get }
    /// The family it belongs to, which `--fail-on` selects.
    static var category: Finding.Category { get }
    /// What a finding of this kind means, in one line.
    static var summary: String { get }
    /// Its settings, with their defaults and ranges.
    static var parameters: [RuleParameter] { get }
    /// How many seconds it needs to watch to find everything it can with `settings`: a shorter run finds only the
    /// larger problems, or none. 0 for a rule that judges the present alone.
    static func window(_ settings: MonitorSettings) -> Double

    /// Makes the rule with the settings' values of its parameters.
    init(settings: MonitorSettings)

    /// The findings `facts` show with this rule's thresholds, with `firstSeen` 0 (the judge stamps the time), or the
    /// time the app's own records say the finding began (a duplicate registration's second registration, when the
    /// monitor heard a registration outlived its scope), which the judge dates it from when that is earlier.
    func judge(_ facts: RuleFacts) -> [Finding]

    /// For a rule whose findings outlast their condition: the registrations `finding`, just raised from `facts`,
    /// stands on (those whose growth raised it, counted by registration second) and how many of them must stay
    /// alive for it to hold. `nil`, the default, for a rule whose findings hold only while their condition does.
    func standing(of finding: Finding, in facts: RuleFacts) -> FindingStanding?

    /// The evidence whose largest value marks a finding of this kind at its worst; `nil`, the default, for the
    /// finding's first piece of evidence.
    static var severity: Evidence.Name? { get }
}

/// What keeps a finding holding after its rule stops raising it: registrations of one site that are still alive.
struct FindingStanding {
    /// The site the registrations were made at.
    var site: SiteKey
    /// The seconds (since the monitor's origin) they were registered in: the windows whose growth raised it.
    var seconds: ClosedRange<Int64>
    /// How many of them are alive, by registration second; a second not named has none.
    var counts: [Int64: Int]
    /// How many of them must stay alive.
    var minimum: Int
}

extension FindingRule {
    static var parameters: [RuleParameter] { [] }
    static func window(_ settings: MonitorSettings) -> Double { 0 }
    static var severity: Evidence.Name? { nil }
    func standing(of finding: Finding, in facts: RuleFacts) -> FindingStanding? { nil }

    /// What ``FindingRules/all`` says about the rule.
    static var info: FindingRuleInfo {
        FindingRuleInfo(
            kind: kind, category: category, summary: summary, parameters: parameters, severity: severity, window: window
        )
    }
}
