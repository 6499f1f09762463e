import ArgumentParser
import PonyExpressMonitor
import PonyTopUI

/// The findings `--fail-on` fails on: one category, or any.
enum FailOn: String, ExpressibleByArgument, CaseIterable {
    case leaks, oversubscription, slow, churn, any

    /// The finding category, or `nil` for any.
    var category: Finding.Category? {
        switch self {
        case .leaks: .leak
        case .oversubscription: .oversubscription
        case .slow: .slow
        case .churn: .churn
        case .any: nil
        }
    }

    /// Whether a finding of `category` fails the run.
    func matches(_ category: Finding.Category) -> Bool {
        self.category == nil || self.category == category
    }

    /// One line per rule this option relies on whose window is longer than the run: such a run cannot see what the
    /// rule needs that long to see.
    func shortRunNotes(duration: Double, settings: MonitorSettings) -> [String] {
        FindingRules.all.filter { settings.isEnabled($0.kind) && matches($0.category) }.compactMap { rule -> String? in
            let window = rule.window(settings)
            guard window > duration else { return nil }
            return
                "note: --duration \(RuleParameter.format(duration)) s is shorter than the \(RuleParameter.format(window)) s "
                + "\(rule.kind) watches; it reports only what shows within the run (--duration "
                + "\(RuleParameter.format(window.rounded(.up))) judges the whole window)"
        }
    }

    /// One line per finding of `report` that fails the run, saying what it is.
    func failures(in report: Report) -> [String] {
        report.findings.filter { Finding.Category(rawValue: $0.category).map(matches) ?? false }.map { finding in
            "--fail-on \(rawValue): \(finding.category) \(finding.kind) \(finding.mailType) at "
                + "\(finding.site.value ?? "-"): \(finding.explanation)"
        }
    }
}
