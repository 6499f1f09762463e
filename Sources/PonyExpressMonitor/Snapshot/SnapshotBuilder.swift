import Histogram
import PonyExpress

/// One shard's counters of one recipient for one posted mail type, as the snapshot collects them.
struct RecipientTotalsEntry {
    let id: UInt64
    let mailType: TypeIdentity
    var totals: RecipientTotals
}

/// Builds a ``MonitorSnapshot``'s values from the merged traffic and the registry view, outside every lock.
struct SnapshotBuilder {
    /// What the live recipients of one site, on one queue, add up to.
    struct QueueShare {
        var recipients = 0
        var deliveries: UInt64 = 0
        var handlerTime: Nanoseconds = 0

        mutating func add(_ totals: RecipientTotals) {
            recipients += 1
            deliveries &+= totals.deliveries
            handlerTime &+= totals.handlerTime
        }
    }

    let settings: MonitorSettings
    let time: Nanoseconds
    let current: Int64
    let first: Int64
    let traffic: [TypeIdentity: MergedTraffic]
    let queues: [String: MergedQueue]
    let view: RegistryView
    /// Superclasses of the class mail types, nearest first.
    let superclasses: [TypeIdentity: [TypeIdentity]]
    /// Live recipients by registered mail type, in registration order.
    let recipients: JoinedRecipients
    /// By site row index: deliveries to its live registrations, and its oldest live registration's time.
    let siteDeliveries: [UInt64]
    let siteOldest: [Nanoseconds?]
    /// By queue label, then site row index.
    let queueShares: [String: [Int: QueueShare]]
    let handlerLatency: LatencySummary
    let queueWait: LatencySummary
    private var summaries: [TypeIdentity: (handler: LatencySummary, wait: LatencySummary)] = [:]

    init(
        settings: MonitorSettings, time: Nanoseconds, current: Int64, first: Int64,
        traffic: [TypeIdentity: MergedTraffic], recipientTotals: [RecipientTotalsEntry],
        queues: [String: MergedQueue], view: RegistryView, relations: inout TypeRelations
    ) {
        self.settings = settings
        self.time = time
        self.current = current
        self.first = first
        self.traffic = traffic
        self.queues = queues
        self.view = view
        let joined = Self.join(view, totals: recipientTotals, sites: view.sites.count)
        recipients = joined.recipients
        siteDeliveries = joined.siteDeliveries
        siteOldest = joined.siteOldest
        queueShares = joined.queueShares
        superclasses = relations.superclasses(
            of: traffic.keys, among: Set(traffic.keys).union(joined.recipients.ranges.keys))
        var allHandlers = LatencyHistogram.make()
        var allWaits = LatencyHistogram.make()
        for (mailType, merged) in traffic {
            if let handler = merged.handler { allHandlers.add(handler) }
            if let wait = merged.wait { allWaits.add(wait) }
            summaries[mailType] = (
                merged.handler.map(LatencySummary.init) ?? .empty, merged.wait.map(LatencySummary.init) ?? .empty
            )
        }
        handlerLatency = LatencySummary(allHandlers)
        queueWait = LatencySummary(allWaits)
    }

    /// Joins each live recipient, in the registry's ``RegistrationOrder``, to its delivery totals (sorting small keys
    /// and binary searches, no hashing, so that a snapshot of ten thousand recipients stays cheap); adds up each
    /// site's deliveries, oldest registration and queue load on the way. Reads the registrations' plain values only
    /// (``LiveRegistration``): copying whole entries retains their strings, 100,000 times at 100,000 recipients.
    private static func join(
        _ view: RegistryView, totals unsorted: [RecipientTotalsEntry], sites: Int
    ) -> (
        recipients: JoinedRecipients, siteDeliveries: [UInt64], siteOldest: [Nanoseconds?],
        queueShares: [String: [Int: QueueShare]]
    ) {
        let totals = unsorted.sorted { $0.id < $1.id }
        let entries = view.order.registrations
        var siteDeliveries = [UInt64](repeating: 0, count: sites)
        var siteOldest = [Nanoseconds?](repeating: nil, count: sites)
        var sharesByQueue = [[Int: QueueShare]](repeating: [:], count: view.order.queueLabels.count)
        let rows = entries.indices.map { position in
            let id = entries[position].id.rawValue
            var low = 0
            var high = totals.count
            while low < high {
                let middle = (low + high) / 2
                if totals[middle].id < id { low = middle + 1 } else { high = middle }
            }
            var found = RecipientTotals()
            var others: [PostedTypeDeliveries] = []
            while low < totals.count, totals[low].id == id {
                let part = totals[low]
                found.merge(part.totals)
                if part.mailType != entries[position].mailType {
                    if let known = others.firstIndex(where: { $0.mailType == part.mailType }) {
                        others[known] = PostedTypeDeliveries(
                            mailType: part.mailType, deliveries: others[known].deliveries &+ part.totals.deliveries,
                            handlerTime: others[known].handlerTime &+ part.totals.handlerTime)
                    } else {
                        others.append(
                            PostedTypeDeliveries(
                                mailType: part.mailType, deliveries: part.totals.deliveries,
                                handlerTime: part.totals.handlerTime))
                    }
                }
                low += 1
            }
            let site = entries[position].siteIndex
            if site < sites {
                let registeredAt = entries[position].registeredAt
                siteDeliveries[site] &+= found.deliveries
                siteOldest[site] = Swift.min(siteOldest[site] ?? registeredAt, registeredAt)
                if let queue = entries[position].queue {
                    sharesByQueue[queue][site, default: QueueShare()].add(found)
                }
            }
            return JoinedRecipients.Row(
                position: position, deliveries: found.deliveries, timedDeliveries: found.timedDeliveries,
                handlerTime: found.handlerTime,
                maxHandlerTime: found.maxHandlerTime,
                deliveriesByPostedType: others.isEmpty ? [] : others.sorted { $0.mailType.name < $1.mailType.name })
        }
        var queueShares: [String: [Int: QueueShare]] = [:]
        for (queue, shares) in sharesByQueue.enumerated() where !shares.isEmpty {
            queueShares[view.order.queueLabels[queue]] = shares
        }
        return (
            JoinedRecipients(entries: view.entries, registrations: entries, rows: rows, ranges: view.order.ranges),
            siteDeliveries, siteOldest, queueShares
        )
    }

    /// Completed seconds since attach or reset.
    private var completed: Int64 { current }

    /// The mean per second of the last `window` completed seconds of `series` (fewer right after attach).
    private func rate(_ series: [UInt64], window: Int) -> Double {
        let seconds = Int(Swift.min(Int64(window), completed))
        guard seconds > 0 else { return 0 }
        return Double(series.suffix(seconds).reduce(0, &+)) / Double(seconds)
    }

    /// The last completed seconds of `series`, at most the history length, oldest first.
    private func history(_ series: [UInt64]) -> [Double] {
        series.suffix(Int(Swift.min(Int64(settings.historyLength), completed))).map { Double($0) }
    }

    // MARK: - Values

    func totals() -> TrafficTotals {
        var posts: UInt64 = 0
        var deliveries: UInt64 = 0
        var skipped: UInt64 = 0
        var postsSeries = [UInt64](repeating: 0, count: Int(current - first))
        var deliveriesSeries = postsSeries
        for merged in traffic.values {
            posts &+= merged.posts
            deliveries &+= merged.deliveries
            skipped &+= merged.skipped
            for index in postsSeries.indices {
                postsSeries[index] &+= merged.postsSeries[index]
                deliveriesSeries[index] &+= merged.deliveriesSeries[index]
            }
        }
        return TrafficTotals(
            posts: posts, deliveries: deliveries, skipped: skipped, pruned: view.pruned,
            recipientsAlive: view.entries.count, postsPerSecond: rate(postsSeries, window: settings.shortSeconds),
            deliveriesPerSecond: rate(deliveriesSeries, window: settings.shortSeconds),
            prunesPerSecond: rate(view.prunesSeries, window: settings.shortSeconds),
            postsHistory: history(postsSeries), deliveriesHistory: history(deliveriesSeries),
            prunesHistory: history(view.prunesSeries))
    }

    func mailTypes() -> [MailTypeStats] {
        let types = Set(traffic.keys).union(recipients.ranges.keys).union(view.prunedByType.keys)
        let empty = MergedTraffic(span: Int(current - first))
        let stats = types.map { mailType in
            let merged = traffic[mailType] ?? empty
            let summary = summaries[mailType] ?? (.empty, .empty)
            return MailTypeStats(
                mailType: mailType, posts: merged.posts, deliveries: merged.deliveries, skipped: merged.skipped,
                pruned: view.prunedByType[mailType] ?? 0,
                postsPerSecond: rate(merged.postsSeries, window: settings.shortSeconds),
                deliveriesPerSecond: rate(merged.deliveriesSeries, window: settings.shortSeconds),
                postsPerSecondLong: rate(merged.postsSeries, window: settings.longSeconds),
                deliveriesPerSecondLong: rate(merged.deliveriesSeries, window: settings.longSeconds),
                history: history(merged.deliveriesSeries), recipients: counts(of: mailType),
                handlerLatency: summary.handler, queueWait: summary.wait,
                superclasses: superclasses[mailType] ?? [],
                inheritedRecipients: (superclasses[mailType] ?? []).reduce(0) { $0 + recipients.count(of: $1) },
                bridgedPosts: merged.bridged)
        }
        // Names break ties only, but building one is slow (`String(describing:)` of a metatype): build each once.
        return zip(stats, stats.map(\.mailType.name))
            .sorted { lhs, rhs in (lhs.0.deliveries, lhs.0.posts, rhs.1) > (rhs.0.deliveries, rhs.0.posts, lhs.1) }
            .map(\.0)
    }

    /// Counts one mail type's live recipients in place, hashing the queue labels of queued ones only.
    private func counts(of mailType: TypeIdentity) -> RecipientCounts {
        guard let range = recipients.ranges[mailType], !range.isEmpty else { return .none }
        var byQueue = [Int](repeating: 0, count: view.order.queueLabels.count)
        var synchronous = 0
        var blocks = 0
        for row in range {
            let registration = recipients.registrations[recipients.rows[row].position]
            if let queue = registration.queue {
                byQueue[queue] += 1
            } else {
                synchronous += 1
            }
            if registration.isBlock { blocks += 1 }
        }
        var byLabel: [String: Int] = [:]
        for (queue, count) in byQueue.enumerated() where count > 0 {
            byLabel[view.order.queueLabels[queue], default: 0] += count
        }
        if synchronous > 0 { byLabel[RecipientCounts.synchronousLabel, default: 0] += synchronous }
        return RecipientCounts(total: range.count, objects: range.count - blocks, blocks: blocks, byQueue: byLabel)
    }

    func queueStats() -> [QueueStats] {
        let recent = Int(Swift.min(Int64(settings.longSeconds), completed))
        let short = Int(Swift.min(Int64(settings.shortSeconds), completed))
        return queues.map { label, merged in
            let recentDeliveries = merged.deliveriesSeries.suffix(recent).reduce(0, &+)
            let recentOver = merged.overBoundSeries.suffix(recent).reduce(0, &+)
            let shortWait = merged.waitSeries.suffix(short).reduce(0, &+)
            return QueueStats(
                label: label, deliveries: merged.deliveries,
                meanWait: merged.deliveries == 0 ? 0 : merged.waitSum / Double(merged.deliveries),
                maxWait: merged.maxWait,
                waitHistory: merged.meanWaits.suffix(Int(Swift.min(Int64(settings.historyLength), completed)))
                    .compactMap { $0 },
                wait: merged.histogram.map(LatencySummary.init) ?? .empty,
                deliveriesPerSecond: rate(merged.deliveriesSeries, window: settings.shortSeconds),
                estimatedBacklog: short == 0 ? 0 : Double(shortWait) / 1e9 / Double(short),
                recentMaxWait: merged.maxWaitSeries.suffix(recent).max() ?? 0,
                recentShareOverBound: recentDeliveries == 0 ? 0 : Double(recentOver) / Double(recentDeliveries),
                mailTypes: merged.types.values.map { waits in
                    QueueMailType(
                        mailType: waits.mailType, deliveries: waits.deliveries,
                        meanWait: waits.deliveries == 0 ? 0 : waits.waitSum / Double(waits.deliveries),
                        waitsOverBound: waits.overBound)
                }
                .sorted {
                    ($0.waitsOverBound, $0.deliveries, $1.mailType.name) > (
                        $1.waitsOverBound, $1.deliveries, $0.mailType.name
                    )
                },
                load: load(on: label))
        }
        .sorted { ($0.deliveries, $1.label) > ($1.deliveries, $0.label) }
    }

    /// The live recipients on a queue, grouped by site, most handler time first.
    private func load(on label: String) -> [QueueLoad] {
        guard let shares = queueShares[label] else { return [] }
        let total = shares.values.reduce(0) { $0 &+ $1.handlerTime }
        return shares.compactMap { index, share -> QueueLoad? in
            guard let key = view.sites[index].key else { return nil }
            return QueueLoad(
                site: key.site, mailType: key.mailType, kind: key.kind, recipients: share.recipients,
                deliveries: share.deliveries, handlerTime: share.handlerTime,
                share: total == 0 ? 0 : Double(share.handlerTime) / Double(total))
        }
        .sorted {
            ($0.handlerTime, $0.recipients, $1.site.description) > ($1.handlerTime, $1.recipients, $0.site.description)
        }
    }

    /// Every site, most live registrations first.
    func siteStats() -> [SiteStats] {
        let scopes = scopeCounts()
        let sites = view.sites.indices.compactMap { index -> SiteStats? in
            let site = view.sites[index]
            guard site.live > 0 || site.registered > 0 || site.key != nil else { return nil }
            return SiteStats(
                site: site.key?.site, mailType: site.key?.mailType, kind: site.key?.kind,
                lastRegistration: site.lastRegistration, live: site.live, liveBlocks: site.liveBlocks,
                registered: site.registered, unregistered: site.unregistered, pruned: site.pruned,
                history: site.history, growthLast10Seconds: site.live - site.live(secondsAgo: 11),
                growthLastMinute: site.live - site.live(secondsAgo: 61),
                oldestAge: siteOldest[index].map { time.elapsed(since: $0) }, lifetimes: site.lifetimes,
                deliveries: siteDeliveries[index],
                scopes: scopes.isEmpty
                    ? [] : site.key.flatMap { scopes[.init(mailType: $0.mailType, site: $0.site)] } ?? [])
        }
        // Descriptions break ties only, but each is a new string: build each once.
        return zip(sites, sites.map { $0.site?.description ?? "" })
            .sorted { lhs, rhs in (lhs.0.live, lhs.0.registered, rhs.1) > (rhs.0.live, rhs.0.registered, lhs.1) }
            .map(\.0)
    }

    /// The ledger's counts by site, most leaked scopes first, then by name.
    private func scopeCounts() -> [ScopeLedger.RegistrationSite: [ScopeCounts]] {
        guard !view.scopes.isEmpty else { return [:] }
        var bySite: [ScopeLedger.RegistrationSite: [ScopeCounts]] = [:]
        for (key, record) in view.scopes {
            bySite[key.registrationSite, default: []].append(
                ScopeCounts(
                    name: key.scope, leakedScopes: record.leakedScopes, cleanScopes: record.cleanScopes,
                    outlived: record.outlived.count))
        }
        return bySite.mapValues { counts in
            counts.sorted { ($0.leakedScopes, $1.name) > ($1.leakedScopes, $0.name) }
        }
    }

    // MARK: - Findings

    /// What the rules look at, with the figures this snapshot shows.
    func findingInput(
        mailTypes: [MailTypeStats], queues queueStats: [QueueStats], siteRuns: [RunProfile], liveness: Liveness,
        livingCountedAbove: Int, growthFloor: Int
    ) -> FindingInput {
        FindingInput(
            settings: settings, time: time, origin: view.origin, current: current, mailTypes: mailTypes,
            recipients: recipients, sites: view.sites, siteRuns: siteRuns, entries: view.entries, queues: queueStats,
            queueSeries: queues, liveness: liveness, scopes: view.scopes, livingCountedAbove: livingCountedAbove,
            growthFloor: growthFloor, leakChanges: view.leakChanges, leakChangesLostAt: view.leakChangesLostAt)
    }
}
