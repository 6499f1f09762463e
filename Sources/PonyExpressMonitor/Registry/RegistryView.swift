import PonyExpress

/// What a snapshot needs from the ``RecipientRegistry``, copied out under its lock.
struct RegistryView {
    var entries: [RecipientRegistry.Entry]
    var sites: [SiteStats]
    var siteWindows: [FindingDetector.SiteWindow]
    var recentPrunes: [PruneRecord]
    var prunedByType: [TypeIdentity: UInt64]
    var pruned: UInt64
    /// Prunes per second for the seconds `first..<current`.
    var prunesSeries: [UInt64]
    var estimatedBytes: Int

    init(_ registry: RecipientRegistry, current: Int64, first: Int64, settings: MonitorSettings) {
        entries = Array(registry.entries.values)
        let historyStart = current - Int64(Swift.min(Int64(settings.historyLength), current))
        let windowStart = current - Int64(settings.leakSeconds) - 1
        let longStart = current - Int64(settings.longSeconds)
        sites = []
        siteWindows = []
        for row in registry.rows where row.live > 0 || row.registered > 0 || row.site != nil {
            sites.append(
                SiteStats(
                    site: row.site, mailType: row.mailType, live: row.live, liveBlocks: row.liveBlocks,
                    registered: row.registered, unregistered: row.unregistered, pruned: row.pruned,
                    history: row.liveSeries(from: historyStart, to: current, now: current, blocks: false).map {
                        Double($0)
                    }
                ))
            guard let site = row.site, let mailType = row.mailType else { continue }
            var prunes: UInt64 = 0
            for second in longStart..<current {
                prunes &+= row.seconds.value(lane: SiteRow.Lane.pruned, second: second)
            }
            siteWindows.append(
                FindingDetector.SiteWindow(
                    site: site, mailType: mailType,
                    live: row.liveSeries(from: windowStart, to: current, now: current, blocks: false),
                    blocks: row.liveSeries(from: windowStart, to: current, now: current, blocks: true),
                    blocksUnregistered: row.blocksUnregistered, prunesInLongWindow: prunes))
        }
        // Descriptions break ties only, but each is a new string: build each once.
        sites = zip(sites, sites.map { $0.site?.description ?? "" })
            .sorted { lhs, rhs in (lhs.0.live, lhs.0.registered, rhs.1) > (rhs.0.live, rhs.0.registered, lhs.1) }
            .map(\.0)
        // Copying an empty Deque into an Array writes the count of the shared empty-array storage, which
        // ThreadSanitizer reports as a race between two monitors taking snapshots at once: skip the copy.
        recentPrunes = registry.pruneLog.isEmpty ? [] : Array(registry.pruneLog)
        prunedByType = Dictionary(uniqueKeysWithValues: registry.prunedByType.values.map { ($0.mailType, $0.count) })
        pruned = registry.pruned
        prunesSeries = Array(repeating: 0, count: Int(current - first))
        registry.prunes.accumulate(lane: 0, from: first, into: &prunesSeries)
        estimatedBytes = registry.estimatedBytes
    }
}
