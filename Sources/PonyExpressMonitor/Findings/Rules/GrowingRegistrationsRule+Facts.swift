import PonyExpress

extension GrowingRegistrationsRule {
    /// What the leak rule judges, without thresholds: the sites that grew, with their live registrations by the
    /// second they were registered in, and the registration seconds of watched sites that changed lately.
    ///
    /// Raising a leak needs a site's live counts over the window and when its live registrations were registered;
    /// holding one needs, for as long as it holds, how many of those registered in its window live, and that window
    /// can be far older than the kept history. So the app watches every site it gathered here (``LeakWatch``) and
    /// each snapshot's facts carry the live count of every registration second of a watched site that changed within
    /// the kept history: a judge that reads snapshots less than the kept history apart updates the counts of the
    /// leaks it holds from them, exactly, with facts whose size grows with the changes, not with the leak's age.
    struct Facts: Sendable, Codable, Equatable {
        /// The least growth over a window at which a site was gathered: the lowest `minimumGrowth` these facts can
        /// be judged with (1 in a recording's).
        var growthFloor: Int
        /// Sites whose live count rose by at least ``growthFloor`` in every quarter of some window.
        var sites: [GrowingSite] = []
        /// The registration seconds of watched sites that changed within the kept history, with their live counts
        /// now.
        var changes: [SiteSeconds] = []
        /// The last second in which the app could not note a change for want of room: a judge that held a leak
        /// across it cannot re-check it exactly.
        var changesLostAt: Int64?
    }

    /// A site that grew, with what the rule reads of its live registrations.
    struct GrowingSite: Sendable, Codable, Equatable {
        var mailType: TypeIdentity
        var site: SourceLocation
        var kind: RecipientKind
        /// The first second the monitor watched the site.
        var firstSecond: Int64
        /// Live registrations now, as the monitor counts them (weak recipients released but not yet pruned, and
        /// duplicates, included).
        var live: Int
        /// Live registrations at the end of each second to the last complete one, oldest first.
        var liveSeries: [Int]
        /// The seconds within the kept history in which the site registered its alive, non-duplicate
        /// registrations, ascending, and how many of those each holds, by the same index.
        var registeredSeconds: [Int64]
        var registeredCounts: [Int]
        /// The alive, non-duplicate registrations registered before the kept history.
        var registeredBefore: Int
        /// How long the oldest and the median alive registration have been registered, in nanoseconds.
        var oldestAge: Nanoseconds
        var medianAge: Nanoseconds
        /// How long the site's ended registrations lived.
        var lifetimes: LifetimeSummary
        /// Alive registrations older than nine in ten of the ended ones lived.
        var olderThanP90Lifetime: Int

        var key: SiteKey { SiteKey(site: site, mailType: mailType, kind: kind) }

        /// Alive, non-duplicate registrations, all told.
        var alive: Int { registeredCounts.reduce(registeredBefore, &+) }

        /// The alive, non-duplicate registrations by the second they were registered in, within the kept history.
        var counts: [Int64: Int] { Dictionary(zip(registeredSeconds, registeredCounts), uniquingKeysWith: { $1 }) }

        /// Live registrations at the end of the second `secondsAgo` seconds before the current one (1 for the last
        /// complete second), at most the series' length.
        func live(secondsAgo: Int) -> Int {
            guard !liveSeries.isEmpty else { return 0 }
            return liveSeries[liveSeries.count - Swift.min(Swift.max(1, secondsAgo), liveSeries.count)]
        }
    }

    /// Counts of a site's alive, non-duplicate registrations, by the second (since the monitor's origin) they were
    /// registered in.
    struct SiteSeconds: Sendable, Codable, Equatable {
        var mailType: TypeIdentity
        var site: SourceLocation
        var kind: RecipientKind
        /// Ascending.
        var seconds: [Int64]
        /// The count of each of ``seconds``, by the same index.
        var alive: [Int]

        var key: SiteKey { SiteKey(site: site, mailType: mailType, kind: kind) }

        /// The counts by second; a second named twice counts once, the last time.
        var counts: [Int64: Int] {
            Dictionary(zip(seconds, alive), uniquingKeysWith: { $1 })
        }
    }

    /// The live counts at the end of the window of `window` seconds, at the end of each of its first three
    /// quarters, and now, by `live(secondsAgo:)`.
    static func quarterCounts(window: Int, now: Int, live: (Int) -> Int) -> [Int] {
        let boundaries = (1...3).map { quarter in window - Int((Double(quarter * window) / 4).rounded()) + 1 }
        return [live(window + 1)] + boundaries.map(live) + [now]
    }

    /// Whether `counts` rise at every step, by at least `growth` in all.
    static func rises(_ counts: [Int], by growth: Int) -> Bool {
        counts[4] &- counts[0] >= growth && zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }
    }
}

extension GrowingRegistrationsRule.Facts {
    /// The shortest window any settings judge (`growingRegistrations.shortestWindow`'s least value).
    private static let shortestWindow = 4

    /// Gathers the leak rule's facts of `input`, with the sites gathered and the registration seconds read of each,
    /// which the monitor then watches.
    static func gathering(
        _ input: FindingInput
    ) -> (facts: Self, grown: [(row: Int, key: SiteKey, seconds: [Int64])]) {
        let floor = Swift.max(1, input.growthFloor)
        let scoped = Set(input.scopes.keys.map(\.registrationSite))
        var grown: [Int] = []
        for (index, site) in input.sites.enumerated() where index > 0 {
            guard let key = site.key, mayHaveGrown(site, by: floor, current: input.current),
                scoped.isEmpty
                    || !scoped.contains(ScopeLedger.RegistrationSite(mailType: key.mailType, site: key.site))
            else { continue }
            grown.append(index)
        }
        var facts = Self(growthFloor: floor, changesLostAt: input.leakChangesLostAt)
        let changed = Set(input.leakChanges)
        guard !grown.isEmpty || !changed.isEmpty else { return (facts, []) }

        // One pass over the registrations: every one of the rows that grew, and those of the registration seconds
        // that changed (a watched site of 100,000 registrations with a few changes asks about a few); then the post
        // office says which are alive, a thousand at a time.
        let grownRows = Set(grown)
        let changedRows = Set(changed.map(\.row))
        var byRow: [Int: [RecipientRegistry.Entry]] = [:]
        for entry in input.entries.values where !entry.isDuplicate {
            guard
                grownRows.contains(entry.siteIndex)
                    || changedRows.contains(entry.siteIndex)
                        && changed.contains(
                            LeakWatch.Pair(row: entry.siteIndex, second: input.registrationSecond(entry.registeredAt)))
            else { continue }
            byRow[entry.siteIndex, default: []].append(entry)
        }
        for (row, entries) in byRow {
            let alive = input.liveness.areAlive(entries.map(\.info.id))
            byRow[row] = zip(entries, alive).filter(\.1).map(\.0)
        }

        let historyStart = input.current - Int64(input.settings.ringCapacity - 2)
        var read: [(row: Int, key: SiteKey, seconds: [Int64])] = []
        for row in grown {
            guard let key = input.sites[row].key else { continue }
            let site = GrowingRegistrationsRule.GrowingSite(
                input.sites[row], key: key, alive: byRow[row] ?? [], historyStart: historyStart, input: input)
            facts.sites.append(site)
            read.append((row, key, site.registeredSeconds))
        }
        var changedByRow: [Int: Set<Int64>] = [:]
        for pair in changed { changedByRow[pair.row, default: []].insert(pair.second) }
        for (row, seconds) in changedByRow.sorted(by: { $0.key < $1.key }) {
            guard row < input.sites.count, let key = input.sites[row].key else { continue }
            var counts: [Int64: Int] = [:]
            for entry in byRow[row] ?? [] {
                let second = input.registrationSecond(entry.registeredAt)
                if seconds.contains(second) { counts[second, default: 0] += 1 }
            }
            let ordered = seconds.sorted()
            facts.changes.append(
                GrowingRegistrationsRule.SiteSeconds(
                    mailType: key.mailType, site: key.site, kind: key.kind, seconds: ordered,
                    alive: ordered.map { counts[$0] ?? 0 }))
        }
        return (facts, read)
    }

    /// Whether the site's live count rose by at least `floor` in every quarter of some window the rule may judge:
    /// the sites any settings with that least growth could find a leak at.
    private static func mayHaveGrown(_ site: SiteRecord, by floor: Int, current: Int64) -> Bool {
        let series = site.liveSeries
        guard series.count > shortestWindow, site.live - (series.min() ?? 0) >= floor else { return false }
        for window in shortestWindow..<series.count where Int64(window) <= current {
            let counts = GrowingRegistrationsRule.quarterCounts(window: window, now: site.live) {
                site.live(secondsAgo: $0)
            }
            if GrowingRegistrationsRule.rises(counts, by: floor) { return true }
        }
        return false
    }
}

extension GrowingRegistrationsRule.GrowingSite {
    /// The facts of the site in `record`, whose alive, non-duplicate registrations are `alive`.
    init(
        _ record: SiteRecord, key: SiteKey, alive: [RecipientRegistry.Entry], historyStart: Int64, input: FindingInput
    ) {
        mailType = key.mailType
        site = key.site
        kind = key.kind
        firstSecond = record.firstSecond
        live = record.live
        liveSeries = record.liveSeries
        var counts: [Int64: Int] = [:]
        var before = 0
        for entry in alive {
            let second = input.registrationSecond(entry.registeredAt)
            if second >= historyStart { counts[second, default: 0] += 1 } else { before += 1 }
        }
        registeredSeconds = counts.keys.sorted()
        registeredCounts = registeredSeconds.map { counts[$0] ?? 0 }
        registeredBefore = before
        let ages = alive.map { input.time.elapsed(since: $0.registeredAt) }.sorted(by: >)
        oldestAge = ages.first ?? 0
        medianAge = ages.isEmpty ? 0 : ages[ages.count / 2]
        lifetimes = record.lifetimes
        olderThanP90Lifetime = record.lifetimes.p90.map { p90 in ages.count { $0 > p90 } } ?? 0
    }
}
