import PonyExpress

extension Finding.Kind {
    /// Registrations from one site pile up and stay alive: a leak, such as objects kept alive by a retain cycle or
    /// blocks never unregistered.
    public static let growingRegistrations: Self = "growingRegistrations"
}

extension Evidence.Name {
    /// Registrations the site gained within the window and still holds alive.
    public static let growth: Self = "growth"
    /// ``growth`` per second of the window.
    public static let growthPerSecond: Self = "growth per second"
    /// How long the oldest live registration of the site has been registered, in nanoseconds.
    public static let oldestAge: Self = "oldest age"
    /// The median age of the site's live registrations, in nanoseconds.
    public static let medianAge: Self = "median age"
    /// How many of the site's registrations ended (were unregistered or pruned).
    public static let endedRegistrations: Self = "ended registrations"
    /// How long half the site's ended registrations lived at most, in nanoseconds.
    public static let medianLifetime: Self = "median lifetime"
    /// How long nine in ten of the site's ended registrations lived at most, in nanoseconds.
    public static let p90Lifetime: Self = "p90 lifetime"
    /// Live registrations older than nine in ten of the site's ended ones lived.
    public static let olderThanP90Lifetime: Self = "older than p90 lifetime"
}

/// Reports a registration site whose live registrations keep growing and stay alive: the leak signature.
///
/// For windows from `shortestWindow` seconds (4), then every 5 s up to `window` (60), the rule asks of each site:
/// - did it gain at least `minimumGrowth` registrations over the window (the count now against the count when the
///   window began), rising in every quarter of it, so that one burst (a screen opening, start-up) is not growth?
/// - of the registrations it holds now, are they really alive (a weak recipient released without unregistering is
///   only pruned by the next post), not extra registrations of one object (``Finding/Kind/duplicateRegistration``),
///   and are there still `minimumGrowth` more than when the window began? (For a window that starts with the site,
///   what it registered in its first second is its starting population, not growth.)
/// - were the survivors registered in every quarter of the window: the site never returns to its floor.
///
/// Shorter windows find fast leaks fast (4 a second within 4 s); longer ones find slow leaks (one every 5 s within a
/// minute). The finding carries the ages of the survivors and how long the site's ended registrations lived.
///
/// A leak stays a leak: once raised, the finding holds while `minimumGrowth` of the registrations whose growth raised
/// it (those registered within its window) stay alive, even after the site stops growing, since the leaked objects
/// are still there. When fewer are left, the judge retracts it and says why: the site was a population that filled
/// up and emptied, the rule's blind spot while it grows.
///
/// It judges whole seconds of ``RuleFacts`` (``Facts``), so that a judge far from the app (a viewer, a replay) finds
/// and holds what the app's own does; ``FindingMemory`` holds a raised leak from later facts.
struct GrowingRegistrationsRule: FindingRule {
    static let kind = Finding.Kind.growingRegistrations
    static let category = Finding.Category.leak
    static let summary =
        "Registrations from one site keep piling up and stay alive, in every part of a window: a leak."
    static let window = RuleParameter(
        kind, "window", "the longest window over which a site's growth is judged, in whole seconds", unit: .seconds,
        default: 60, range: 4...3600, isWhole: true)
    static let shortestWindow = RuleParameter(
        kind, "shortestWindow",
        "the shortest window judged, in whole seconds; longer ones go by 5 s up to the window", unit: .seconds,
        default: 4, range: 4...3600, isWhole: true)
    static let minimumGrowth = RuleParameter(
        kind, "minimumGrowth", "registrations a site must gain, and keep alive, within one window", unit: .count,
        default: 8, range: 1...1e9, isWhole: true)
    static let parameters = [window, shortestWindow, minimumGrowth]
    static func window(_ settings: MonitorSettings) -> Double { settings[window] }

    /// The windows judged, in seconds, shortest first.
    let windows: [Int]
    let minimumGrowth: Int

    init(settings: MonitorSettings) {
        let longest = Int(settings[Self.window])
        let shortest = Swift.min(Int(settings[Self.shortestWindow]), longest)
        // The shortest, then every multiple of 5 s, then the longest: a leak is judged as soon as a window holds
        // enough of it, whatever its pace.
        let steps = stride(from: 5, to: longest, by: 5).filter { $0 > shortest }
        windows = [shortest] + steps + (longest > shortest ? [longest] : [])
        minimumGrowth = Int(settings[Self.minimumGrowth])
    }

    func judge(_ facts: RuleFacts) -> [Finding] {
        guard let leaks = facts.leaks else { return [] }
        return leaks.sites.compactMap { site in
            for window in windows where Int64(window) <= facts.second {
                if let finding = judge(site, window: window, facts: facts) { return finding }
            }
            return nil
        }
    }

    func standing(of finding: Finding, in facts: RuleFacts) -> FindingStanding? {
        guard
            let site = facts.leaks?.sites.first(where: {
                $0.site == finding.site && $0.mailType == finding.mailType && $0.kind.name == finding.subject
            })
        else { return nil }
        let window = Int64(Swift.min(3600, Swift.max(0, finding.evidence(named: .windowSeconds) ?? 0)))
        let start = facts.second &- window
        guard start <= facts.second else { return nil }
        return FindingStanding(
            site: site.key, seconds: start...facts.second,
            counts: site.counts.filter { (start...facts.second).contains($0.key) }, minimum: minimumGrowth)
    }

    /// The finding of one site over one window of whole seconds, if it shows the leak signature.
    private func judge(_ site: GrowingSite, window: Int, facts: RuleFacts) -> Finding? {
        guard window + 1 <= site.liveSeries.count else { return nil }
        // The live count when the window began, at the end of each of its first three quarters, and now.
        let counts = Self.quarterCounts(window: window, now: site.live) { site.live(secondsAgo: $0) }
        guard Self.rises(counts, by: minimumGrowth) else { return nil }
        // The live count includes released weak recipients not yet pruned and repeated registrations of one
        // object: count the registrations the post office really holds alive, once per object.
        let start = facts.second - Int64(window)
        let alive = site.alive
        // When the window starts with the site, what it held at the end of its first second is its starting
        // population, not growth.
        let sinceFirst = Int(facts.second &- site.firstSecond)
        let startsWithSite = start <= site.firstSecond
        let baseline = startsWithSite ? Swift.max(counts[0], site.live(secondsAgo: sinceFirst)) : counts[0]
        let growth = alive &- baseline
        guard growth >= minimumGrowth else { return nil }
        // The growth was measured since the start of the window, or since the site's first second ended.
        let grown = startsWithSite ? Double(Swift.max(0, sinceFirst &- 1)) : Double(window)
        var quarters = [0, 0, 0, 0]
        for (second, count) in zip(site.registeredSeconds, site.registeredCounts) where second >= start {
            let quarter = Swift.min(3, Double(second &- start) / Double(window) * 4)
            quarters[Int(quarter)] &+= count
        }
        guard quarters.allSatisfy({ $0 > 0 }) else { return nil }
        return finding(site, growth: growth, window: window, grown: grown)
    }

    private func finding(_ site: GrowingSite, growth: Int, window: Int, grown: Double) -> Finding {
        let rate = Double(growth) / Swift.max(1, grown)
        let what = site.kind.objectType.map { "\($0.name) objects" } ?? "blocks"
        let alive = site.alive
        var explanation =
            "\(what) registered for \(site.mailType.name) at \(site.site) pile up: \(alive) alive, +\(growth) "
            + "in \(Units.decimal(grown, places: 0)) s (\(Units.compact(rate))/s), the oldest "
            + "\(Units.duration(site.oldestAge)) old"
        var evidence = [
            Evidence(name: .live, value: Double(alive)),
            Evidence(name: .growth, value: Double(growth)),
            Evidence(name: .windowSeconds, value: Double(window)),
            Evidence(name: .growthPerSecond, value: rate, unit: .perSecond),
            Evidence(name: .oldestAge, value: Double(site.oldestAge), unit: .nanoseconds),
            Evidence(name: .medianAge, value: Double(site.medianAge), unit: .nanoseconds),
            Evidence(name: .endedRegistrations, value: Double(site.lifetimes.ended)),
        ]
        if let median = site.lifetimes.median, let p90 = site.lifetimes.p90 {
            explanation +=
                "; its \(Units.count(site.lifetimes.ended)) ended registrations lived \(Units.duration(median)) "
                + "(median), \(site.olderThanP90Lifetime) alive are older than nine in ten of those lived"
            evidence += [
                Evidence(name: .medianLifetime, value: Double(median), unit: .nanoseconds),
                Evidence(name: .p90Lifetime, value: Double(p90), unit: .nanoseconds),
                Evidence(name: .olderThanP90Lifetime, value: Double(site.olderThanP90Lifetime)),
            ]
        } else {
            explanation += "; none of this site's registrations has ended"
        }
        return Finding(
            kind: Self.kind, mailType: site.mailType, site: site.site, subject: site.kind.name,
            explanation: explanation, evidence: evidence, firstSeen: 0)
    }
}
