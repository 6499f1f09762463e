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
/// are still there. When fewer are left, the monitor retracts it and says why: the site was a population that filled
/// up and emptied, the rule's blind spot while it grows.
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

    func check(_ input: FindingInput, facts _: RuleFacts) -> [Finding] {
        // A site whose registrations were judged at the end of their scopes is outlivedScope's: it knows at once.
        let scoped = Set(input.scopes.keys.map(\.registrationSite))
        return input.sites.indices.compactMap { index in
            guard let key = input.sites[index].key,
                scoped.isEmpty
                    || !scoped.contains(ScopeLedger.RegistrationSite(mailType: key.mailType, site: key.site))
            else { return nil }
            for window in windows where Int64(window) <= input.current {
                if let finding = judge(input.sites[index], key: key, index: index, window: window, input: input) {
                    return finding
                }
            }
            return nil
        }
    }

    func standing(of finding: Finding, in input: FindingInput) -> FindingStanding? {
        guard
            let index = input.sites.firstIndex(where: { site in
                site.key.map {
                    $0.site == finding.site && $0.mailType == finding.mailType && $0.kind.name == finding.subject
                } ?? false
            })
        else { return nil }
        let window = Int64(finding.evidence(named: .windowSeconds) ?? 0)
        let start = input.start(of: input.current - window)
        let grown = input.registrations(atSite: index).filter {
            !$0.isDuplicate && $0.registeredAt >= start && input.liveness.isAlive($0.info.id)
        }
        return FindingStanding(registrations: Set(grown.map(\.info.id)), minimum: minimumGrowth)
    }

    /// The finding of one site over one window, if it shows the leak signature.
    private func judge(
        _ site: SiteRecord, key: SiteKey, index: Int, window: Int, input: FindingInput
    ) -> Finding? {
        guard window + 1 <= site.liveSeries.count else { return nil }
        // The live count when the window began, at the end of each of its first three quarters, and now.
        let boundaries = (1...3).map { quarter in window - Int((Double(quarter * window) / 4).rounded()) + 1 }
        let counts = [site.live(secondsAgo: window + 1)] + boundaries.map { site.live(secondsAgo: $0) } + [site.live]
        guard counts[4] - counts[0] >= minimumGrowth, zip(counts, counts.dropFirst()).allSatisfy({ $0 < $1 }) else {
            return nil
        }
        // The registry may hold released weak recipients and repeated registrations of one object: count the
        // registrations the post office really holds alive, once per object.
        let start = input.start(of: input.current - Int64(window))
        guard input.time > start else { return nil }
        let alive = input.registrations(atSite: index).filter { !$0.isDuplicate && input.liveness.isAlive($0.info.id) }
        // When the window starts with the site, what it held at the end of its first second is its starting
        // population, not growth.
        let startsWithSite = input.current - Int64(window) <= site.firstSecond
        let baseline =
            startsWithSite
            ? Swift.max(counts[0], site.live(secondsAgo: Int(input.current - site.firstSecond))) : counts[0]
        let growth = alive.count - baseline
        guard growth >= minimumGrowth else { return nil }
        let span = Double(input.time - start)
        // The growth was measured since the start of the window, or since the site's first second ended.
        let grown =
            startsWithSite ? Double(input.time - Swift.min(input.time, input.start(of: site.firstSecond + 1))) : span
        var quarters = [0, 0, 0, 0]
        for entry in alive where entry.registeredAt >= start {
            quarters[Swift.min(3, Int(Double(entry.registeredAt - start) / span * 4))] += 1
        }
        guard quarters.allSatisfy({ $0 > 0 }) else { return nil }
        return finding(key: key, site: site, alive: alive, growth: growth, window: window, grown: grown, input: input)
    }

    private func finding(
        key: SiteKey, site: SiteRecord, alive: [RecipientRegistry.Entry], growth: Int, window: Int, grown: Double,
        input: FindingInput
    ) -> Finding {
        let ages = alive.map { input.time.elapsed(since: $0.registeredAt) }.sorted(by: >)
        let oldest = ages.first ?? 0
        let rate = Double(growth) / Swift.max(1, grown / 1e9)
        let what = key.kind.objectType.map { "\($0.name) objects" } ?? "blocks"
        var explanation =
            "\(what) registered for \(key.mailType.name) at \(key.site) pile up: \(alive.count) alive, +\(growth) "
            + "in \(Units.decimal(grown / 1e9, places: 0)) s (\(Units.compact(rate))/s), the oldest "
            + "\(Units.duration(oldest)) old"
        var evidence = [
            Evidence(name: .live, value: Double(alive.count)),
            Evidence(name: .growth, value: Double(growth)),
            Evidence(name: .windowSeconds, value: Double(window)),
            Evidence(name: .growthPerSecond, value: rate, unit: .perSecond),
            Evidence(name: .oldestAge, value: Double(oldest), unit: .nanoseconds),
            Evidence(name: .medianAge, value: Double(ages[ages.count / 2]), unit: .nanoseconds),
            Evidence(name: .endedRegistrations, value: Double(site.lifetimes.ended)),
        ]
        if let median = site.lifetimes.median, let p90 = site.lifetimes.p90 {
            let older = ages.count { $0 > p90 }
            explanation +=
                "; its \(Units.count(site.lifetimes.ended)) ended registrations lived \(Units.duration(median)) "
                + "(median), \(older) alive are older than nine in ten of those lived"
            evidence += [
                Evidence(name: .medianLifetime, value: Double(median), unit: .nanoseconds),
                Evidence(name: .p90Lifetime, value: Double(p90), unit: .nanoseconds),
                Evidence(name: .olderThanP90Lifetime, value: Double(older)),
            ]
        } else {
            explanation += "; none of this site's registrations has ended"
        }
        return Finding(
            kind: Self.kind, mailType: key.mailType, site: key.site, subject: key.kind.name, explanation: explanation,
            evidence: evidence, firstSeen: 0)
    }
}
