import ArgumentParser
import PonyExpressMonitor
import PonyTopReport
import PonyTopUI

/// The findings `--fail-on` fails on: categories, singular or plural and comma-separated (`leak,slow`), or `any`.
struct FailOn {
    /// The categories, `nil` for any.
    let categories: Set<Finding.Category>?
    /// The option's value as given, for messages.
    let argument: String

    /// Parses `leak,slow`, `leaks`, `any`; an unknown name is a one-line error that lists the valid ones.
    init(parsing argument: String) throws {
        self.argument = argument
        var categories = Set<Finding.Category>()
        for name in argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = String(name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            if trimmed.lowercased() == "any" || trimmed.lowercased() == "all" {
                self.categories = nil
                return
            }
            guard let category = FindingVocabulary.category(named: trimmed) else {
                throw ValidationError(
                    "unknown category '\(trimmed)'; expected one or more of "
                        + (FindingVocabulary.categoryNames + ["any"]).map { "'\($0)'" }.joined(separator: ", ")
                        + ", comma-separated")
            }
            categories.insert(category)
        }
        self.categories = categories
    }

    /// Whether a finding of `category` fails the run.
    func matches(_ category: Finding.Category) -> Bool {
        categories?.contains(category) ?? true
    }

    /// One line per rule this option relies on whose window is longer than what the run can see: such a run cannot
    /// see what the rule needs that long to see.
    ///
    /// - Parameters:
    ///   - duration: `--duration`, in seconds.
    ///   - watched: How long an attached app's monitor had watched when the run began, in seconds: its rules see
    ///     that history too (up to the seconds it keeps). 0 for a scenario, which starts with the run.
    ///   - settings: The rules' settings.
    func shortRunNotes(duration: Double, watched: Double = 0, settings: MonitorSettings) -> [String] {
        FindingRules.all.filter { settings.isEnabled($0.kind) && matches($0.category) }.compactMap { rule -> String? in
            let window = rule.window(settings)
            guard window > duration + watched else { return nil }
            if watched > 0 {
                let more = (window - watched).rounded(.up)
                return
                    "note: the app's monitor had watched for \(RuleParameter.format(watched.rounded(.down))) s and "
                    + "--duration \(RuleParameter.format(duration)) s adds to it: less than the "
                    + "\(RuleParameter.format(window)) s \(rule.kind) watches; it reports only what shows within them "
                    + "(--duration \(RuleParameter.format(more)) judges the whole window)"
            }
            return
                "note: --duration \(RuleParameter.format(duration)) s is shorter than the \(RuleParameter.format(window)) s "
                + "\(rule.kind) watches; it reports only what shows within the run (--duration "
                + "\(RuleParameter.format(window.rounded(.up))) judges the whole window)"
        }
    }

    /// One line per finding seen during the run that fails it (every one of its categories not retracted), saying
    /// what it is and where it stands.
    func failures(in report: Report) -> [String] {
        report.findings.filter { finding in
            finding.counts && (Finding.Category(rawValue: finding.category).map(matches) ?? false)
        }.map { finding in
            "--fail-on \(argument): \(finding.category) \(finding.kind) \(finding.mailType) at "
                + "\(finding.site.value ?? "-") [\(Report.stateText(finding))]: \(finding.explanation)"
        }
    }
}
