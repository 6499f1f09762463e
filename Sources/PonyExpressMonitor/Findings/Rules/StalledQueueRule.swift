import PonyExpress

extension Finding.Kind {
    /// Deliveries on one queue wait longer than a user would accept (`stalledQueue.wait`, 250 ms) at the 99th
    /// percentile, second after second.
    public static let stalledQueue: Self = "stalledQueue"
}

extension Evidence.Name {
    /// The wait bound, in nanoseconds.
    public static let waitBound: Self = "wait bound"
    /// The share of the window's deliveries that waited longer than the bound.
    public static let shareOverBound: Self = "share over bound"
    /// The longest wait in the window, in nanoseconds.
    public static let worstWait: Self = "worst wait"
    /// Seconds of the window in which some delivery waited longer than the bound.
    public static let secondsOverBound: Self = "seconds over bound"
    /// The mean number of deliveries waiting on the queue over the short window.
    public static let estimatedBacklog: Self = "estimated backlog"
    /// The share of the queue's handler time taken by the recipients of the busiest site.
    public static let topLoadShare: Self = "top site's share of handler time"
}

/// Reports a queue whose deliveries wait longer than a bound at a percentile, in several seconds of a short window:
/// naming the queue, the mail types that waited, and the recipients whose handler time keeps it busy.
struct StalledQueueRule: FindingRule {
    static let kind = Finding.Kind.stalledQueue
    static let severity: Evidence.Name? = .worstWait
    static let category = Finding.Category.slow
    static let summary =
        "Mail waits on a queue longer than a user would accept, second after second: the queue's handlers cannot keep up."
    static let wait = RuleParameter(
        kind, "wait", "the wait from post to handler start, in seconds, that a user feels", unit: .seconds,
        default: 0.25, range: 0.001...100)
    static let percentile = RuleParameter(
        kind, "percentile", "the percentile of the window's waits that must exceed the bound", unit: .number,
        default: 99, range: 50...100)
    static let window = RuleParameter(
        kind, "window", "the window judged, in whole seconds", unit: .seconds, default: 5, range: 1...3600,
        isWhole: true)
    static let seconds = RuleParameter(
        kind, "seconds", "seconds of the window in which some delivery waited longer than the bound", unit: .count,
        default: 3, range: 1...3600, isWhole: true)
    static let parameters = [wait, percentile, window, seconds]
    static func window(_ settings: MonitorSettings) -> Double { settings[window] }

    let bound: Double
    let allowedShare: Double
    let window: Int
    let seconds: Int

    init(settings: MonitorSettings) {
        bound = settings[Self.wait] * 1e9
        allowedShare = (100 - settings[Self.percentile]) / 100
        window = Int(settings[Self.window])
        seconds = Swift.min(Int(settings[Self.seconds]), Int(settings[Self.window]))
    }

    func judge(_ facts: RuleFacts) -> [Finding] {
        guard facts.second >= Int64(seconds) else { return [] }
        return facts.queues.compactMap { queue -> Finding? in
            let deliveries = queue.deliveries.suffix(window).reduce(0, &+)
            // No more than the deliveries: a recording's facts are input from outside.
            let over = Swift.min(deliveries, queue.overBound.suffix(window).reduce(0, &+))
            let secondsOver = queue.overBound.suffix(window).count { $0 > 0 }
            guard deliveries > 0, Double(over) / Double(deliveries) > allowedShare, secondsOver >= seconds else {
                return nil
            }
            let share = Double(over) / Double(deliveries)
            let worst = queue.maxWaits.suffix(window).max() ?? 0
            var explanation =
                "queue \(queue.label) stalls: \(Units.decimal(share * 100, places: 0))% of its "
                + "\(Units.count(deliveries)) deliveries in the last \(window) s waited over "
                + "\(Units.duration(UInt64(bound))) (worst \(Units.duration(worst)))"
            if !queue.waiting.isEmpty {
                explanation += "; waiting: " + queue.waiting.map(\.name).joined(separator: ", ")
            }
            if let busiest = queue.busiest { explanation += "; " + busiest.handlerTimeClause }
            var evidence = [
                Evidence(name: .waitBound, value: bound, unit: .nanoseconds),
                Evidence(name: .shareOverBound, value: share, unit: .share),
                Evidence(name: .worstWait, value: Double(worst), unit: .nanoseconds),
                Evidence(name: .deliveries, value: Double(deliveries)),
                Evidence(name: .secondsOverBound, value: Double(secondsOver)),
                Evidence(name: .estimatedBacklog, value: queue.estimatedBacklog),
            ]
            if let busiest = queue.busiest {
                evidence.append(Evidence(name: .topLoadShare, value: busiest.share, unit: .share))
            }
            return Finding(
                kind: Self.kind,
                mailType: queue.waiting.first ?? queue.firstMailType ?? TypeIdentity(OtherMailTypes.self),
                site: queue.busiest?.site, subject: queue.label, explanation: explanation, evidence: evidence,
                firstSeen: 0)
        }
    }
}
