import PonyExpress

/// What a snapshot needs from the ``RecipientRegistry``, copied out under its lock.
struct RegistryView {
    /// The registry's own table, shared, not copied: copying 100,000 entries (and retaining their strings) was most of
    /// a snapshot's cost. The registry copies it only if it changes while a snapshot still holds it.
    var entries: [RecipientId: RecipientRegistry.Entry]
    /// Every live registration's plain values, in no order.
    var registrations: [LiveRegistration]
    /// The distinct queue labels of the live registrations.
    var queueLabels: [String]
    /// The site rows, by row index (row 0 gathers the sites beyond the capacity).
    var sites: [SiteRecord]
    var recentPrunes: [PruneRecord]
    var prunedByType: [TypeIdentity: UInt64]
    var pruned: UInt64
    /// Prunes per second for the seconds `first..<current`.
    var prunesSeries: [UInt64]
    var estimatedBytes: Int

    init(_ registry: RecipientRegistry, current: Int64, first: Int64, settings: MonitorSettings) {
        entries = registry.entries
        var registrations: [LiveRegistration] = []
        registrations.reserveCapacity(registry.entries.count)
        var queueLabels: [String] = []
        for entry in registry.entries.values {
            var queue: Int?
            if let label = entry.info.queueLabel {
                // Few distinct labels, each one string object shared by its registrations: compared, not hashed.
                if let known = queueLabels.lastIndex(of: label) {
                    queue = known
                } else {
                    queue = queueLabels.count
                    queueLabels.append(label)
                }
            }
            registrations.append(
                LiveRegistration(
                    id: entry.info.id, mailType: entry.info.mailType, siteIndex: entry.siteIndex,
                    registeredAt: entry.registeredAt, isDuplicate: entry.isDuplicate,
                    isBlock: entry.info.kind == .block, queue: queue))
        }
        self.registrations = registrations
        self.queueLabels = queueLabels
        let historyStart = current - Int64(Swift.min(Int64(settings.historyLength), current))
        sites = registry.rows.map { SiteRecord($0, current: current, historyStart: historyStart, settings: settings) }
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
