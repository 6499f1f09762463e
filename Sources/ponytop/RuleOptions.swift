import ArgumentParser
import PonyExpressMonitor

/// The options that choose the monitor's finding rules and their thresholds: `--allow`, `--warn`, `--rule-setting`
/// and `--list-rules`.
struct RuleOptions: ParsableArguments {
    @Option(
        name: .customLong("allow"),
        help: ArgumentHelp(
            "Turn off the rules of a kind, a category (leak(s), oversubscription(s), slow, churn) or all; repeatable.",
            valueName: "KIND"))
    var allowed: [String] = []

    @Option(
        name: .customLong("warn"),
        help: ArgumentHelp(
            "Turn on the rules of a kind, a category or all, after --allow; repeatable.", valueName: "KIND"))
    var warned: [String] = []

    @Option(
        name: .customLong("rule-setting"),
        help: ArgumentHelp(
            "Set a rule's parameter, such as stalledQueue.wait=0.5 (see --list-rules); repeatable.",
            valueName: "NAME=VALUE"))
    var ruleSettings: [String] = []

    @Flag(help: "List the finding rules, their categories, windows and settings, and exit.")
    var listRules = false

    func validate() throws {
        var settings = MonitorSettings()
        try apply(to: &settings)
    }

    /// Turns rules on and off and sets their parameters as these options ask, over `settings` (the defaults, or the
    /// config file's).
    func apply(to settings: inout MonitorSettings) throws {
        for name in allowed { settings.disabledRules.formUnion(try Self.kinds(named: name, option: "--allow")) }
        for name in warned { settings.disabledRules.subtract(try Self.kinds(named: name, option: "--warn")) }
        for assignment in ruleSettings {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Self.number(parts[1]) else {
                throw ValidationError(
                    "--rule-setting: '\(assignment)' is not NAME=VALUE with a number, such as stalledQueue.wait=0.5")
            }
            do {
                try settings.setParameter(named: parts[0], to: value)
            } catch {
                throw ValidationError("--rule-setting: \(error.description)")
            }
        }
    }

    /// The rules an attached app's facts are judged with over the app's own (by ponytop, or by an agent before
    /// protocol 1.9 on its behalf), and a replay's over the recorded app's (`settings`, the config file's with these
    /// options over them, against the defaults): the rules turned off, those `--warn` turned on, and every parameter that is not
    /// its default or that `--rule-setting` names. The rest are the app's own.
    func overrides(judging settings: MonitorSettings) throws -> RuleOverrides {
        var overrides = RuleOverrides()
        overrides.disable(settings.disabledRules)
        var warnedKinds = Set<Finding.Kind>()
        for name in warned { warnedKinds.formUnion(try Self.kinds(named: name, option: "--warn")) }
        overrides.enable(warnedKinds.subtracting(settings.disabledRules))
        let named = Set(namedParameters)
        for parameter in FindingRules.parameters
        where settings[parameter] != parameter.defaultValue || named.contains(parameter.name) {
            try overrides.set(parameter.name, to: settings[parameter])
        }
        return overrides
    }

    /// The parameters `--rule-setting` names, in order.
    var namedParameters: [String] {
        ruleSettings.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) }
    }

    /// The kinds a name stands for: a kind, a category (singular or plural), or `all`.
    static func kinds(named name: String, option: String) throws -> Set<Finding.Kind> {
        if let kinds = FindingVocabulary.kinds(named: name) { return kinds }
        throw ValidationError(
            "\(option): unknown rule '\(name)'; expected one of \(FindingVocabulary.ruleNames.joined(separator: ", "))")
    }

    /// A number, or a duration with a unit: `0.5`, `250ms`, `2s`, `100us`.
    static func number(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("ns", 1e-9), ("s", 1)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }.flatMap { $0.isFinite ? $0 : nil }
        }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The rules, one paragraph each, for `--list-rules`.
    static func list(with settings: MonitorSettings) -> String {
        var lines: [String] = []
        for rule in FindingRules.all {
            let window = rule.window(settings)
            let state = settings.isEnabled(rule.kind) ? "" : "  (off)"
            lines.append(
                "\(rule.kind)  [\(rule.category)]"
                    + (window > 0 ? "  window \(RuleParameter.format(window)) s" : "") + state)
            lines.append("    \(rule.summary)")
            for parameter in rule.parameters {
                lines.append(
                    "    \(parameter.name) = \(RuleParameter.format(settings[parameter]))  \(parameter.summary)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
