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

    /// A mail type's living recipients, and the site that registered most of them.
    struct Crowd: Sendable, Codable, Equatable {
        var mailType: TypeIdentity
        var living: Int
        var topSite: SourceLocation?
        var livingFromTopSite: Int
        /// Live registrations of its site rows at the end of each second of the kept history, oldest first (since
        /// wire protocol 1.9; `nil` before): what dates a crowd a judge first sees late. Sites beyond the site table's
        /// capacity are not in it.
        var liveSeries: [Int]? = nil
    }

    /// Every mail type with more living recipients than `input.livingCountedAbove`, the lowest threshold the facts
    /// may be judged with.
    static func crowds(in input: FindingInput) -> [Crowd] {
        let floor = input.livingCountedAbove
        let joined = input.recipients
        return joined.ranges.compactMap { mailType, range -> Crowd? in
            guard range.count > floor else { return nil }
            // Released weak recipients wait in the table for a post to prune them: count the living. Read in place,
            // by site row: a recording's facts count every mail type's, 100,000 recipients at scale.
            var living = 0
            var byRow: [Int: Int] = [:]
            var bySite: [SourceLocation: Int] = [:]
            let registrations = range.map { joined.registrations[joined.rows[$0].position] }
            let alive = input.liveness.areAlive(registrations.map(\.id))
            for (registration, isAlive) in zip(registrations, alive) {
                guard isAlive else { continue }
                living += 1
                if registration.siteIndex > 0 {
                    byRow[registration.siteIndex, default: 0] += 1
                } else if let entry = joined.entries[registration.id] {
                    // Row 0 gathers the sites beyond the capacity: each registration names its own.
                    bySite[entry.info.site, default: 0] += 1
                }
            }
            guard living > floor else { return nil }
            for (index, count) in byRow {
                guard index < input.sites.count, let key = input.sites[index].key else { continue }
                bySite[key.site, default: 0] += count
            }
            let top = bySite.max { ($0.value, $1.key.description) < ($1.value, $0.key.description) }
            var series: [Int] = []
            for index in byRow.keys where index < input.sites.count {
                let rowSeries = input.sites[index].liveSeries
                series = series.isEmpty ? rowSeries : zip(series, rowSeries).map { $0 &+ $1 }
            }
            // No series when all its sites are beyond the site table's capacity: nothing dates it then.
            return Crowd(
                mailType: mailType, living: living, topSite: top?.key, livingFromTopSite: top?.value ?? 0,
                liveSeries: series.isEmpty ? nil : series)
        }
    }

    func judge(_ facts: RuleFacts) -> [Finding] {
        facts.crowds.compactMap { crowd -> Finding? in
            guard crowd.living > threshold else { return nil }
            var evidence = [
                Evidence(name: .liveRecipients, value: Double(crowd.living)),
                Evidence(name: .threshold, value: Double(threshold)),
            ]
            if crowd.topSite != nil {
                evidence.append(Evidence(name: .liveFromTopSite, value: Double(crowd.livingFromTopSite)))
            }
            return Finding(
                kind: Self.kind, mailType: crowd.mailType, site: crowd.topSite,
                explanation:
                    "\(crowd.mailType.name) has \(crowd.living) live recipients, more than the threshold of \(threshold)",
                evidence: evidence, firstSeen: 0)
        }
    }
}
