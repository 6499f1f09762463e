import PonyExpress

extension Finding.Kind {
    /// One recipient's handler takes most of the handler time of a posted mail type.
    public static let slowRecipient: Self = "slowRecipient"
}

extension Evidence.Name {
    /// The recipient's share of the handler time of the posted type.
    public static let shareOfHandlerTime: Self = "share of handler time"
    /// The recipient's mean handler time for the posted type, in nanoseconds.
    public static let meanHandlerTime: Self = "mean handler time"
    /// How many receivers of the posted type had deliveries.
    public static let recipientsWithDeliveries: Self = "recipients with deliveries"
}

/// Reports a recipient whose handler takes most of the handler time of a posted mail type, counting the recipients
/// registered for its superclasses with what they received of it.
struct SlowRecipientRule: FindingRule {
    static let kind = Finding.Kind.slowRecipient
    static let category = Finding.Category.slow
    static let summary =
        "One recipient's handler takes most of the handler time of a mail type it receives (its own or a subclass)."
    static let share = RuleParameter(
        kind, "share", "share of the posted type's handler time from which a recipient is reported", unit: .share,
        default: 0.8, range: 0.01...1)
    static let minimumMean = RuleParameter(
        kind, "minimumMean", "mean handler time, in seconds, below which no recipient is reported", unit: .seconds,
        default: 0.0001, range: 0...100)
    static let minimumDeliveries = RuleParameter(
        kind, "minimumDeliveries", "deliveries a recipient needs before it can be reported", unit: .count,
        default: 10, range: 1...1e12, isWhole: true)
    static let parameters = [share, minimumMean, minimumDeliveries]
    /// Timed handler runs a recipient needs before it can be reported. The monitor times one post in
    /// ``MonitorSettings/handlerTimingInterval``, and a recipient's longest run is left out, so that a mean from one
    /// or two runs the system preempted is never reported. A slow handler's next post is always timed: a recipient
    /// that really is slow reaches this soon.
    static let minimumTimedRuns: UInt64 = 5

    let share: Double
    let minimumMean: Double
    let minimumDeliveries: UInt64

    init(settings: MonitorSettings) {
        share = settings[Self.share]
        minimumMean = settings[Self.minimumMean] * 1e9
        minimumDeliveries = UInt64(settings[Self.minimumDeliveries])
    }

    func check(_ input: FindingInput) -> [Finding] {
        var found: [Finding] = []
        for stats in input.mailTypes where stats.deliveries > 0 {
            let receivers = input.receivers(of: stats.mailType).filter { $0.deliveries > 1 }
            // Each recipient's single longest run is left out: one run the system preempted proves nothing.
            let typical = receivers.map {
                Double($0.handlerTime - Swift.min($0.handlerTime, $0.recipient.maxHandlerTime))
            }
            let total = typical.reduce(0, +)
            guard receivers.count >= 2, total > 0 else { continue }
            for (receiver, time) in zip(receivers, typical) {
                let recipientShare = time / total
                let mean = time / Double(receiver.deliveries - 1)
                guard recipientShare >= share, receiver.deliveries >= minimumDeliveries, mean >= minimumMean,
                    receiver.timedRuns >= Self.minimumTimedRuns
                else { continue }
                let info = receiver.recipient.info
                let who = info.kind.objectType.map { "a \($0.name)" } ?? "a block"
                let via = receiver.isInherited ? ", registered for \(info.mailType.name)," : ""
                found.append(
                    Finding(
                        kind: Self.kind, mailType: stats.mailType, site: info.site, subject: info.id.description,
                        explanation:
                            "\(who) (\(info.id))\(via) takes \(Int((recipientShare * 100).rounded()))% of "
                            + "\(stats.mailType.name) handler time, \(Units.duration(UInt64(mean.rounded()))) a delivery",
                        evidence: [
                            Evidence(name: .shareOfHandlerTime, value: recipientShare, unit: .share),
                            Evidence(name: .meanHandlerTime, value: mean, unit: .nanoseconds),
                            Evidence(name: .deliveries, value: Double(receiver.deliveries)),
                            Evidence(name: .recipientsWithDeliveries, value: Double(receivers.count)),
                        ], firstSeen: 0))
            }
        }
        return found
    }
}
