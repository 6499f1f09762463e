/// A consumer's changes to a monitor's rules: rules turned off or on and parameters set, applied over the monitor's
/// own settings by ``PostOfficeMonitor/makeJudge(overriding:)``.
///
/// What `ponytop --attach` sends the app's agent from `--allow`, `--warn`, `--rule-setting` and its config file, so
/// that the viewer's findings are judged by the viewer's rules. Kinds travel by name: a kind this monitor does not
/// know (a newer viewer's rule) is not one of its rules, and is ignored; an unknown parameter is refused.
public struct RuleOverrides: Sendable, Hashable, Codable {
    /// The rules turned off, by kind name (`leak` categories already expanded to kinds).
    public var disabled: [String] = []
    /// The rules turned on, by kind name, even when the monitor's settings turn them off.
    public var enabled: [String] = []
    /// The parameters set, by full name (`stalledQueue.window`).
    public var parameters: [String: Double] = [:]

    /// No change: the monitor's own rules.
    public init() {}

    /// Whether it changes nothing.
    public var isEmpty: Bool { disabled.isEmpty && enabled.isEmpty && parameters.isEmpty }

    /// Turns the rules of `kinds` off (and no longer on).
    public mutating func disable(_ kinds: Set<Finding.Kind>) {
        let names = Set(kinds.map(\.rawValue))
        enabled.removeAll { names.contains($0) }
        disabled = Array(Set(disabled).union(names)).sorted()
    }

    /// Turns the rules of `kinds` on (and no longer off).
    public mutating func enable(_ kinds: Set<Finding.Kind>) {
        let names = Set(kinds.map(\.rawValue))
        disabled.removeAll { names.contains($0) }
        enabled = Array(Set(enabled).union(names)).sorted()
    }

    /// Sets a parameter by its full name, checked as ``MonitorSettings/setParameter(named:to:)`` checks it.
    ///
    /// - Throws: ``MonitorSettingsError`` for an unknown name or a value out of range.
    public mutating func set(_ name: String, to value: Double) throws(MonitorSettingsError) {
        var settings = MonitorSettings()
        try settings.setParameter(named: name, to: value)
        parameters[name] = value
    }

    /// The known kinds it turns off.
    var disabledRules: Set<Finding.Kind> { Self.known(disabled) }
    /// The known kinds it turns on.
    var enabledRules: Set<Finding.Kind> { Self.known(enabled) }

    private static func known(_ names: [String]) -> Set<Finding.Kind> {
        let kinds = Set(FindingRules.all.map(\.kind))
        return Set(names.map(Finding.Kind.init(rawValue:))).intersection(kinds)
    }
}

extension MonitorSettings {
    /// These settings' rules as changes over the defaults: the rules they turn off and every parameter they set to
    /// another value than its default. An agent sends them in its hello (since wire protocol 1.9), so that a viewer
    /// judging the app's facts itself starts from the app's rules, as the app's own judges do.
    public var ruleChanges: RuleOverrides {
        var changes = RuleOverrides()
        changes.disable(disabledRules)
        for parameter in FindingRules.parameters where self[parameter] != parameter.defaultValue {
            changes.parameters[parameter.name] = self[parameter]
        }
        return changes
    }

    /// The rules a consumer judges an app's facts with, away from the app (an attached viewer, a replay): the
    /// defaults, the app's rules (as far as this build knows them: a newer app's own parameters are its business) and
    /// the consumer's `overrides` over them.
    ///
    /// - Parameters:
    ///   - appRules: The app's ``ruleChanges``, from its agent's hello or a recording's.
    ///   - overrides: The consumer's changes over them.
    /// - Throws: ``MonitorSettingsError`` for a known parameter out of range.
    public init(appRules: RuleOverrides, overriddenBy overrides: RuleOverrides) throws(MonitorSettingsError) {
        self.init()
        var known = appRules
        let names = Set(FindingRules.parameters.map(\.name))
        known.parameters = appRules.parameters.filter { names.contains($0.key) }
        try apply(known)
        try apply(overrides)
    }

    /// Turns the rules `overrides` names off or on, and sets its parameters, over these settings.
    ///
    /// - Parameter overrides: A consumer's rules, or an app's (``ruleChanges``).
    /// - Throws: ``MonitorSettingsError`` for an unknown parameter or a value out of range.
    public mutating func apply(_ overrides: RuleOverrides) throws(MonitorSettingsError) {
        disabledRules.formUnion(overrides.disabledRules)
        disabledRules.subtract(overrides.enabledRules)
        for (name, value) in overrides.parameters.sorted(by: { $0.key < $1.key }) {
            try setParameter(named: name, to: value)
        }
    }
}
