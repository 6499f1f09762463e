import PonyExpress

/// One rule: one kind of problem the monitor looks for, with its settings and the check that finds it.
///
/// A rule is a small value made from ``MonitorSettings`` when the monitor is created; at each snapshot the monitor
/// calls ``check(_:)`` with what the snapshot gathered. The model is tokio-console's `Warn` trait: one type per lint.
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

    /// The findings `input` shows, with `firstSeen` 0: the monitor stamps the time.
    ///
    /// - Parameters:
    ///   - input: The live tables of the snapshot being taken.
    ///   - facts: What was gathered of them for the rules that judge facts (``RuleFacts``).
    func check(_ input: FindingInput, facts: RuleFacts) -> [Finding]

    /// For a rule whose findings outlast their condition: the registrations `finding` stands on (those whose growth
    /// raised it) and how many of them must stay alive for it to hold. `nil`, the default, for a rule whose findings
    /// hold only while their condition does.
    func standing(of finding: Finding, in input: FindingInput) -> FindingStanding?

    /// The evidence whose largest value marks a finding of this kind at its worst; `nil`, the default, for the
    /// finding's first piece of evidence.
    static var severity: Evidence.Name? { get }
}

/// What keeps a finding holding after its rule stops raising it: registrations that are still alive.
struct FindingStanding {
    /// The registrations it stands on.
    var registrations: Set<RecipientId>
    /// How many of them must stay alive.
    var minimum: Int
}

extension FindingRule {
    static var parameters: [RuleParameter] { [] }
    static func window(_ settings: MonitorSettings) -> Double { 0 }
    static var severity: Evidence.Name? { nil }
    func standing(of finding: Finding, in input: FindingInput) -> FindingStanding? { nil }

    /// What ``FindingRules/all`` says about the rule.
    static var info: FindingRuleInfo {
        FindingRuleInfo(
            kind: kind, category: category, summary: summary, parameters: parameters, severity: severity, window: window
        )
    }
}
