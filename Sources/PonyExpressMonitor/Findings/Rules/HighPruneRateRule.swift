import PonyExpress

extension Finding.Kind {
    /// Registrations from one site are pruned at a high rate: their objects die without unregistering.
    public static let highPruneRate: Self = "highPruneRate"
}

extension Evidence.Name {
    /// Prunes per second from the site over the long window.
    public static let prunesPerSecond: Self = "prunes per second"
    /// Prunes from the site over the long window.
    public static let prunesInWindow: Self = "prunes in window"
}

/// Reports a site whose registrations are pruned fast: weak recipients released without unregistering, which is
/// correct use of PonyExpress, so the finding is churn, not a leak.
struct HighPruneRateRule: FindingRule {
    static let kind = Finding.Kind.highPruneRate
    static let category = Finding.Category.churn
    static let summary =
        "Registrations from one site are pruned fast: their objects die without unregistering. Correct, not a leak; each costs a prune."
    static let threshold = RuleParameter(
        kind, "threshold", "prunes per second from one site, over the long window, from which it is reported",
        unit: .perSecond, default: 10, range: 0.001...1e9)
    static let parameters = [threshold]
    static func window(_ settings: MonitorSettings) -> Double { settings.longWindow }

    let threshold: Double

    init(settings: MonitorSettings) {
        threshold = settings[Self.threshold]
    }

    /// One site's prunes over the long window.
    struct SitePrunes: Sendable, Codable, Equatable {
        var mailType: TypeIdentity
        var site: SourceLocation
        var kind: RecipientKind
        var prunes: UInt64
        /// Its prunes in each second of the kept history, oldest first (since wire protocol 1.9; `nil` before): what
        /// dates a finding a judge first sees late.
        var perSecond: [UInt64]? = nil
    }

    /// Every site pruned in the long window.
    static func prunes(in input: FindingInput) -> [SitePrunes] {
        input.sites.compactMap { site in
            guard let key = site.key, site.prunesInLongWindow > 0 else { return nil }
            return SitePrunes(
                mailType: key.mailType, site: key.site, kind: key.kind, prunes: site.prunesInLongWindow,
                perSecond: site.pruneSeries)
        }
    }

    func judge(_ facts: RuleFacts) -> [Finding] {
        // At least a second: a recording's facts are input from outside.
        let window = Double(Swift.max(1, facts.pruneWindow))
        return facts.prunes.compactMap { site -> Finding? in
            let rate = Double(site.prunes) / window
            guard rate >= threshold else { return nil }
            return Finding(
                kind: Self.kind, mailType: site.mailType, site: site.site, subject: site.kind.name,
                explanation:
                    "\(Units.compact(rate)) registrations/s from \(site.site) are pruned: their objects die without "
                    + "unregistering (correct use, but churn)",
                evidence: [
                    Evidence(name: .prunesPerSecond, value: rate, unit: .perSecond),
                    Evidence(name: .prunesInWindow, value: Double(site.prunes)),
                    Evidence(name: .threshold, value: threshold, unit: .perSecond),
                ], firstSeen: 0)
        }
    }
}
