import PonyExpress

/// What a snapshot needs from the ``RecipientRegistry``, copied out under its lock.
struct RegistryView {
    /// The registry's own table, shared, not copied: copying 100,000 entries (and retaining their strings) was most of
    /// a snapshot's cost. The registry copies it only if it changes while a snapshot still holds it.
    var entries: [RecipientId: RecipientRegistry.Entry]
    /// The live registrations in a snapshot's order, as plain values.
    var order: RegistrationOrder
    /// The site rows, by row index (row 0 gathers the sites beyond the capacity).
    var sites: [SiteRecord]
    var recentPrunes: [PruneRecord]
    var prunedByType: [TypeIdentity: UInt64]
    var pruned: UInt64
    /// Prunes per second for the seconds `first..<current`.
    var prunesSeries: [UInt64]
    var estimatedBytes: Int

    init(_ registry: inout RecipientRegistry, current: Int64, first: Int64, settings: MonitorSettings) {
        entries = registry.entries
        order = registry.registrationOrder()
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
