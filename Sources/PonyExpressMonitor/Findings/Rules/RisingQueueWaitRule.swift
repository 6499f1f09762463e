import PonyExpress

extension Finding.Kind {
    /// The wait before queued delivery on one queue keeps rising over the rule's window.
    public static let risingQueueWait: Self = "risingQueueWait"
}

extension Evidence.Name {
    /// The median of the first three seconds' mean waits, in nanoseconds.
    public static let earlyMeanWait: Self = "early mean wait"
    /// The median of the last three seconds' mean waits, in nanoseconds.
    public static let lateMeanWait: Self = "late mean wait"
    /// The share of pairs of seconds in which the later one waited longer.
    public static let shareOfRisingPairs: Self = "share of rising pairs"
    /// Seconds of the window with deliveries.
    public static let secondsWithDeliveries: Self = "seconds with deliveries"
}

/// Reports a queue whose mean wait keeps rising: the trend before a stall.
struct RisingQueueWaitRule: FindingRule {
    static let kind = Finding.Kind.risingQueueWait
    static let severity: Evidence.Name? = .lateMeanWait
    static let category = Finding.Category.slow
    static let summary = "The wait on a queue keeps rising over the window: its handlers are falling behind."
    static let window = RuleParameter(
        kind, "window", "the window judged, in whole seconds", unit: .seconds, default: 10, range: 3...3600,
        isWhole: true)
    static let share = RuleParameter(
        kind, "share",
        "the share of pairs of seconds in which the later one's mean wait is the longer (0.5 steady, 1 rising every second)",
        unit: .share, default: 0.7, range: 0...1)
    static let factor = RuleParameter(
        kind, "factor", "how many times its early mean wait the late mean wait must be", unit: .number, default: 1.5,
        range: 1...1e6)
    static let minimum = RuleParameter(
        kind, "minimum", "the late mean wait, in seconds, below which no queue is reported", unit: .seconds,
        default: 0.05, range: 0...100)
    static let rise = RuleParameter(
        kind, "rise",
        "how much, in seconds, the late mean wait must exceed the early one when it is not factor times it",
        unit: .seconds, default: 0.025, range: 0...100)
    static let parameters = [window, share, factor, minimum, rise]
    static func window(_ settings: MonitorSettings) -> Double { settings[window] }

    let window: Int
    let share: Double
    let factor: Double
    let minimum: Double
    let rise: Double

    init(settings: MonitorSettings) {
        window = Int(settings[Self.window])
        share = settings[Self.share]
        factor = settings[Self.factor]
        minimum = settings[Self.minimum] * 1e9
        rise = settings[Self.rise] * 1e9
    }

    func judge(_ facts: RuleFacts) -> [Finding] {
        guard facts.second >= Int64(window) else { return [] }
        return facts.queues.compactMap { queue -> Finding? in
            guard let mailType = queue.busiestMailType else { return nil }
            let means = queue.meanWaits.suffix(window).compactMap { $0 }
            guard means.count >= Swift.max(3, window / 2) else { return nil }
            // Medians of the first and last three seconds, so that one slow second at either end decides nothing.
            let early = median(means.prefix(3))
            let late = median(means.suffix(3))
            // The share of pairs of seconds in which the later one waited longer: one slow second moves it little.
            var later = 0
            for (index, mean) in means.enumerated() { later += means[(index + 1)...].count { $0 > mean } }
            let pairs = means.count * (means.count - 1) / 2
            let risingShare = Double(later) / Double(pairs)
            // A wait that grows by the same amount every second grows by a smaller factor every second: past
            // `factor`, the rise itself keeps a queue that is still getting worse reported.
            guard risingShare >= share, late >= factor * early || late - early >= rise, late >= minimum else {
                return nil
            }
            let busiest = queue.busiest
            var explanation =
                "the wait on queue \(queue.label) rose from \(Units.duration(Units.nanoseconds(rounding: early))) to "
                + "\(Units.duration(Units.nanoseconds(rounding: late))) in \(window) s"
            if let busiest { explanation += "; " + busiest.handlerTimeClause }
            var evidence = [
                Evidence(name: .earlyMeanWait, value: early, unit: .nanoseconds),
                Evidence(name: .lateMeanWait, value: late, unit: .nanoseconds),
                Evidence(name: .shareOfRisingPairs, value: risingShare, unit: .share),
                Evidence(name: .secondsWithDeliveries, value: Double(means.count)),
            ]
            if let busiest { evidence.append(Evidence(name: .topLoadShare, value: busiest.share, unit: .share)) }
            return Finding(
                kind: Self.kind, mailType: mailType, site: busiest?.site, subject: queue.label,
                explanation: explanation, evidence: evidence, firstSeen: 0)
        }
    }
}

/// The median of a few values.
private func median(_ values: some Collection<Double>) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}
