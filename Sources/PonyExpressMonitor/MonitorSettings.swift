import PonyExpress

/// The windows, capacities, rules and thresholds of a ``PostOfficeMonitor``.
///
/// Every value has a default meant for a real app; tests lower the thresholds to trigger findings with small
/// scenarios. Each rule of ``FindingRules`` can be turned off, and each of its parameters set, by name or through
/// the typed properties below:
///
/// ```swift
/// var settings = MonitorSettings()
/// settings.oversubscriptionThreshold = 10
/// settings.disabledRules = [.highPruneRate]
/// try settings.setParameter(named: "stalledQueue.wait", to: 0.5)
/// let monitor = PostOfficeMonitor(settings: settings)
/// ```
///
/// The monitor clamps out-of-range values to the nearest valid one; call ``validate()`` to reject them instead.
public struct MonitorSettings: Sendable, Hashable {
    /// The short rate window, in seconds (whole seconds, at least 1).
    public var shortWindow: Double = 1
    /// The long rate window, in seconds (whole seconds, at least 1); also the window of ``Finding/Kind/highPruneRate``.
    public var longWindow: Double = 10
    /// How many per-second samples the sparkline histories keep.
    public var historyLength: Int = 60
    /// How many recent prunes the prune log keeps.
    public var pruneLogCapacity: Int = 100
    /// How many registration sites get a row of their own; the rest share the "other" row (site `nil`), which the
    /// leak rule does not judge. A row goes to a new site only when an older one has no live registration: an app
    /// with more sites alive at once than this raises it.
    public var siteCapacity: Int = 256
    /// How many mail types get statistics of their own; mail of further types is counted under ``OtherMailTypes``.
    public var mailTypeCapacity: Int = 256
    /// How many lock-striped shards the hot path spreads its counters over, or 0 for twice the number of active
    /// processors (at most 16).
    public var shards: Int = 0
    /// How many posts one timed post stands for, on each posting thread: the monitor's
    /// ``PostOfficeMonitor/timingInterval``. Every post and delivery is counted; handler times, their percentiles,
    /// means and maxima come from the timed posts: one in this many on each thread, and every post after a slow one
    /// or after a quiet spell (see `DeliveryTap.timingInterval`), so that slow handlers and a thread that posts now
    /// and then are timed every time. A recipient's total handler time is its timed deliveries' mean times its
    /// deliveries. 1 times every post (each timed post reads the clock once, and once more per synchronous
    /// handler). Queued deliveries are always timed.
    public var handlerTimingInterval: Int = 32
    /// The rules that do not report, by kind (`ponytop --allow KIND`). Every rule of ``FindingRules`` is on unless
    /// listed here.
    public var disabledRules: Set<Finding.Kind> = []
    /// The rule parameters set to other values than their defaults, by name.
    private var parameterValues: [String: Double] = [:]

    /// Creates the default settings.
    public init() {}

    // MARK: - Rules

    /// Whether the rule that reports `kind` is on.
    ///
    /// - Parameter kind: A finding kind.
    /// - Returns: `false` if it is in ``disabledRules``.
    public func isEnabled(_ kind: Finding.Kind) -> Bool {
        !disabledRules.contains(kind)
    }

    /// A rule parameter's value: the one set, or its default.
    ///
    /// - Parameter parameter: One of a rule's ``FindingRuleInfo/parameters``.
    public subscript(_ parameter: RuleParameter) -> Double {
        get { parameterValues[parameter.name] ?? parameter.defaultValue }
        // A default is not stored, so that settings equal by value compare equal however they were set.
        set { parameterValues[parameter.name] = newValue == parameter.defaultValue ? nil : newValue }
    }

    /// Sets a rule parameter by its full name, such as `stalledQueue.wait`.
    ///
    /// - Parameters:
    ///   - name: The parameter's ``RuleParameter/name``.
    ///   - value: Its new value, which must be one it accepts.
    /// - Throws: ``MonitorSettingsError`` for an unknown name or a value out of range.
    public mutating func setParameter(named name: String, to value: Double) throws(MonitorSettingsError) {
        guard let parameter = FindingRules.parameters.first(where: { $0.name == name }) else {
            let names = FindingRules.parameters.map(\.name).joined(separator: ", ")
            throw MonitorSettingsError(setting: name, value: RuleParameter.format(value), expected: "one of \(names)")
        }
        guard parameter.accepts(value) else {
            throw MonitorSettingsError(
                setting: name, value: RuleParameter.format(value), expected: parameter.validValues)
        }
        self[parameter] = value
    }

    // MARK: - Validation

    /// Checks every value and throws the first that is out of range.
    ///
    /// - Throws: ``MonitorSettingsError`` naming the setting, its value and what is valid.
    public func validate() throws(MonitorSettingsError) {
        func require(
            _ valid: Bool, _ name: String, _ value: some CustomStringConvertible, _ expected: String
        )
            throws(MonitorSettingsError)
        {
            if !valid { throw MonitorSettingsError(setting: name, value: value.description, expected: expected) }
        }
        try require(shortWindow.isFinite && shortWindow >= 1, "shortWindow", shortWindow, "seconds ≥ 1")
        try require(longWindow.isFinite && longWindow >= 1, "longWindow", longWindow, "seconds ≥ 1")
        try require((1...3600).contains(historyLength), "historyLength", historyLength, "1...3600")
        try require((1...100_000).contains(pruneLogCapacity), "pruneLogCapacity", pruneLogCapacity, "1...100000")
        try require((1...100_000).contains(siteCapacity), "siteCapacity", siteCapacity, "1...100000")
        try require((1...100_000).contains(mailTypeCapacity), "mailTypeCapacity", mailTypeCapacity, "1...100000")
        try require((0...64).contains(shards), "shards", shards, "0...64 (0 for automatic)")
        try require(
            (1...65_536).contains(handlerTimingInterval), "handlerTimingInterval", handlerTimingInterval,
            "1...65536 (1 times every post)")
        for parameter in FindingRules.parameters {
            let value = self[parameter]
            try require(parameter.accepts(value), parameter.name, RuleParameter.format(value), parameter.validValues)
        }
    }
}

extension MonitorSettings {
    /// These settings with every value moved into its valid range.
    func clamped() -> MonitorSettings {
        func seconds(_ value: Double, minimum: Double) -> Double {
            value.isFinite ? Swift.min(3600, Swift.max(minimum, value.rounded())) : minimum
        }
        var settings = self
        settings.shortWindow = seconds(shortWindow, minimum: 1)
        settings.longWindow = seconds(longWindow, minimum: 1)
        settings.historyLength = Swift.min(3600, Swift.max(1, historyLength))
        settings.pruneLogCapacity = Swift.min(100_000, Swift.max(1, pruneLogCapacity))
        settings.siteCapacity = Swift.min(100_000, Swift.max(1, siteCapacity))
        settings.mailTypeCapacity = Swift.min(100_000, Swift.max(1, mailTypeCapacity))
        settings.shards = Swift.min(64, Swift.max(0, shards))
        settings.handlerTimingInterval = Swift.min(65_536, Swift.max(1, handlerTimingInterval))
        for parameter in FindingRules.parameters where parameterValues[parameter.name] != nil {
            settings[parameter] = parameter.clamp(self[parameter])
        }
        return settings
    }

    /// The whole seconds of the short and long windows.
    var shortSeconds: Int { Int(shortWindow) }
    var longSeconds: Int { Int(longWindow) }

    /// The longest window, in whole seconds, of the rules that are on, and the site trends the snapshot shows.
    var trendSeconds: Int {
        let windows = FindingRules.all.filter { isEnabled($0.kind) }.map { Int($0.window(self).rounded(.up)) }
        return Swift.max(SiteRecord.minimumTrendSeconds, windows.max() ?? 0)
    }

    /// How many seconds the per-second rings keep: enough for the history and every window, plus the second under
    /// way and the one before the longest window.
    var ringCapacity: Int {
        Swift.max(historyLength, shortSeconds, longSeconds, trendSeconds) + 2
    }
}
