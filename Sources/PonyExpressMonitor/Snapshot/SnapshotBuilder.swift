import Histogram
import PonyExpress

/// Builds a ``MonitorSnapshot``'s values from the merged traffic and the registry view, outside every lock.
struct SnapshotBuilder {
    let settings: MonitorSettings
    let current: Int64
    let first: Int64
    let traffic: [TypeIdentity: MergedTraffic]
    let queues: [String: MergedQueue]
    let view: RegistryView
    /// Live recipients by registered mail type, in registration order.
    let recipients: RecipientIndex
    let handlerLatency: LatencySummary
    let queueWait: LatencySummary
    private var summaries: [TypeIdentity: (handler: LatencySummary, wait: LatencySummary)] = [:]

    init(
        settings: MonitorSettings, current: Int64, first: Int64, traffic: [TypeIdentity: MergedTraffic],
        recipientTotals: [(id: UInt64, totals: RecipientTotals)], queues: [String: MergedQueue], view: RegistryView
    ) {
        self.settings = settings
        self.current = current
        self.first = first
        self.traffic = traffic
        self.queues = queues
        self.view = view
        recipients = Self.index(view.entries, totals: recipientTotals)
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

    /// Orders the live recipients by mail type, then id, and joins each to its delivery totals: sorting small keys
    /// and binary searches, no hashing, so that a snapshot of ten thousand recipients stays cheap.
    private static func index(
        _ entries: [RecipientRegistry.Entry], totals unsorted: [(id: UInt64, totals: RecipientTotals)]
    ) -> RecipientIndex {
        var totals = unsorted.sorted { $0.id < $1.id }
        var merged = 0
        for index in totals.indices {
            if merged > 0, totals[merged - 1].id == totals[index].id {
                totals[merged - 1].totals.merge(totals[index].totals)
            } else {
                totals[merged] = totals[index]
                merged += 1
            }
        }
        totals.removeLast(totals.count - merged)
        // Group positions by mail type, then sort each group's plain keys by id: sorting the entries themselves
        // would copy (retain and release) their strings on every comparison.
        var groups: [ObjectIdentifier: [(id: UInt64, position: Int)]] = [:]
        for position in entries.indices {
            groups[ObjectIdentifier(entries[position].info.mailType.type), default: []].append(
                (entries[position].info.id.rawValue, position))
        }
        var order: [Int] = []
        order.reserveCapacity(entries.count)
        for group in groups.values {
            order += group.sorted { $0.id < $1.id }.map(\.position)
        }
        let rows = order.map { position in
            let entry = entries[position]
            let id = entry.info.id.rawValue
            var low = 0
            var high = totals.count
            while low < high {
                let middle = (low + high) / 2
                if totals[middle].id < id { low = middle + 1 } else { high = middle }
            }
            let found = low < totals.count && totals[low].id == id ? totals[low].totals : RecipientTotals()
            return RecipientStats(
                info: entry.info, deliveries: found.deliveries, handlerLatency: nil, isDuplicate: entry.isDuplicate,
                handlerTime: found.handlerTime, maxHandlerTime: found.maxHandlerTime)
        }
        return RecipientIndex(orderedRows: rows)
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
                handlerLatency: summary.handler, queueWait: summary.wait)
        }
        // Names break ties only, but building one is slow (`String(describing:)` of a metatype): build each once.
        return zip(stats, stats.map(\.mailType.name))
            .sorted { lhs, rhs in (lhs.0.deliveries, lhs.0.posts, rhs.1) > (rhs.0.deliveries, rhs.0.posts, lhs.1) }
            .map(\.0)
    }

    private func counts(of mailType: TypeIdentity) -> RecipientCounts {
        let recipients = self.recipients[mailType]
        guard !recipients.isEmpty else { return .none }
        var byQueue: [String: Int] = [:]
        var synchronous = 0
        var blocks = 0
        for recipient in recipients {
            if let label = recipient.info.queueLabel {
                byQueue[label, default: 0] += 1
            } else {
                synchronous += 1
            }
            if recipient.info.kind == .block { blocks += 1 }
        }
        if synchronous > 0 { byQueue[RecipientCounts.synchronousLabel, default: 0] += synchronous }
        return RecipientCounts(
            total: recipients.count, objects: recipients.count - blocks, blocks: blocks, byQueue: byQueue)
    }

    func queueStats() -> [QueueStats] {
        queues.map { label, merged in
            QueueStats(
                label: label, deliveries: merged.deliveries,
                meanWait: merged.deliveries == 0 ? 0 : merged.waitSum / Double(merged.deliveries),
                maxWait: merged.maxWait,
                waitHistory: merged.meanWaits.suffix(Int(Swift.min(Int64(settings.historyLength), completed)))
                    .compactMap { $0 })
        }
        .sorted { ($0.deliveries, $1.label) > ($1.deliveries, $0.label) }
    }

    // MARK: - Findings

    func findings() -> [Finding] {
        var input = FindingDetector.Input()
        input.completedSeconds = completed
        let window = settings.leakSeconds
        for merged in traffic.values {
            input.postsInLeakWindow &+= merged.postsSeries.suffix(window).reduce(0, &+)
        }
        for (mailType, range) in recipients.ranges {
            let group = recipients.rows[range]
            // The busiest site matters only to an over-subscription finding.
            var bySite: [SourceLocation: Int] = [:]
            if group.count > settings.oversubscriptionThreshold {
                for recipient in group { bySite[recipient.info.site, default: 0] += 1 }
            }
            let top = bySite.max { ($0.value, $1.key.description) < ($1.value, $0.key.description) }
            input.types.append(
                FindingDetector.TypeRecipients(
                    mailType: mailType, live: group.count, topSite: top?.key, topSiteLive: top?.value ?? 0))
            var duplicates: [ObjectIdentifier: [RecipientStats]] = [:]
            for recipient in group where recipient.isDuplicate {
                if let object = recipient.info.objectIdentifier { duplicates[object, default: []].append(recipient) }
            }
            for members in duplicates.values where members.count > 1 {
                input.duplicates.append(
                    FindingDetector.Duplicate(
                        mailType: mailType, recipientType: members[0].info.kind.objectType,
                        site: members.last!.info.site, ids: members.map(\.info.id)))
            }
            input.loads.append(group)
        }
        input.sites = view.siteWindows
        for (label, merged) in queues {
            guard let mailType = merged.mailType else { continue }
            input.queues.append(
                FindingDetector.QueueWindow(
                    label: label, mailType: mailType, meanWaits: Array(merged.meanWaits.suffix(window))))
        }
        return FindingDetector(settings: settings).findings(in: input)
    }
}
