import PonyExpress

extension Finding.Kind {
    /// A mail type has more live recipients than `oversubscribed.threshold`: every post runs them all.
    public static let oversubscribed: Self = "oversubscribed"
}

extension Evidence.Name {
    /// Live recipients registered for the mail type.
    public static let liveRecipients: Self = "live recipients"
    /// Live recipients registered for the mail type from its busiest site.
    public static let liveFromTopSite: Self = "live from top site"
}

/// Reports a mail type with more live recipients than a threshold, naming the site that registered most of them.
struct OversubscribedRule: FindingRule {
    static let kind = Finding.Kind.oversubscribed
    static let category = Finding.Category.oversubscription
    static let summary = "A mail type has more live recipients than the threshold: every post of it runs them all."
    static let threshold = RuleParameter(
        kind, "threshold", "live recipients of one mail type above which it is reported", unit: .count,
        default: 100, range: 1...100_000_000, isWhole: true)
    static let parameters = [threshold]

    let threshold: Int

    init(settings: MonitorSettings) {
        threshold = Int(settings[Self.threshold])
    }

    func check(_ input: FindingInput) -> [Finding] {
        input.recipients.ranges.compactMap { mailType, range -> Finding? in
            guard range.count > threshold else { return nil }
            // Released weak recipients wait in the table for a post to prune them: count the living.
            let living = input.recipients.stats(of: mailType).filter { input.liveness.isAlive($0.info.id) }
            guard living.count > threshold else { return nil }
            var bySite: [SourceLocation: Int] = [:]
            for recipient in living { bySite[recipient.info.site, default: 0] += 1 }
            let top = bySite.max { ($0.value, $1.key.description) < ($1.value, $0.key.description) }
            var evidence = [
                Evidence(name: .liveRecipients, value: Double(living.count)),
                Evidence(name: .threshold, value: Double(threshold)),
            ]
            if let top { evidence.append(Evidence(name: .liveFromTopSite, value: Double(top.value))) }
            return Finding(
                kind: Self.kind, mailType: mailType, site: top?.key,
                explanation:
                    "\(mailType.name) has \(living.count) live recipients, more than the threshold of \(threshold)",
                evidence: evidence, firstSeen: 0)
        }
    }
}
