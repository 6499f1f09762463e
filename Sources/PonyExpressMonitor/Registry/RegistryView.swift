import PonyExpress

/// What a snapshot needs from the ``RecipientRegistry``: its figures copied out under its lock, and the live
/// registrations in a snapshot's order, made outside it.
struct RegistryView {
    /// The registry's own table, shared, not copied: copying 100,000 entries (and retaining their strings) was most of
    /// a snapshot's cost. A registration made while a snapshot still holds it copies one path of the tree.
    var entries: RecipientRegistry.Entries
    /// The live registrations in a snapshot's order, as plain values.
    var order: RegistrationOrder { taken! }
    /// The order: the registry's when it is current, else made by ``take(from:current:first:settings:)``, which never
    /// returns a view without one.
    private var taken: RegistrationOrder?
    /// The site rows, by row index (row 0 gathers the sites beyond the capacity).
    var sites: [SiteRecord]
    var recentPrunes: [PruneRecord]
    var prunedByType: [TypeIdentity: UInt64]
    var pruned: UInt64
    /// Prunes per second for the seconds `first..<current`.
    var prunesSeries: [UInt64]
    /// The scopes that ended, by scope name and site.
    var scopes: [ScopeLedger.Key: ScopeLedger.Record]
    /// The registration seconds of watched sites that changed lately (``LeakWatch``), and the last second a change
    /// could not be noted.
    var leakChanges: [LeakWatch.Pair]
    var leakChangesLostAt: Int64?
    /// When second 0 began, as the registry counts registration seconds.
    var origin: Nanoseconds
    var estimatedBytes: Int

    /// Takes the view of `registry`. Under its lock, only copies that cost the number of sites and prunes, not the
    /// number of registrations: the app's `register` and `unregister` wait for that lock. Each site's record (its
    /// series over the history) is made after it: made under the lock, 2,000 sites held an `unregister` 1.2-9 ms
    /// (`ponybench watch-cost`). When registrations changed since the
    /// last snapshot, the order is patched (or built) after the lock is released, and given back to the registry.
    ///
    /// Callers take views one at a time (``PostOfficeMonitor``'s snapshot lock): the registry keeps one order.
    static func take(
        from registry: Locked<RecipientRegistry>, current: Int64, first: Int64, settings: MonitorSettings
    ) -> RegistryView {
        var (view, rows, work) = registry.withLock { registry -> (RegistryView, [SiteTally], OrderWork?) in
            let view = RegistryView(&registry, current: current, first: first)
            // A copy of its own, made here, so that the next registration does not copy the rows on the app's
            // thread; the records are made from it after the lock, since making them costs a series per site.
            let rows = registry.rows.map { $0 }
            return (view, rows, view.taken == nil ? registry.takeOrderWork() : nil)
        }
        let historyStart = current - Int64(Swift.min(Int64(settings.historyLength), current))
        view.sites = rows.map { SiteRecord($0, current: current, historyStart: historyStart, settings: settings) }
        if let work {
            let made = work.build()
            // The estimate counts the order the registry keeps: the one just made.
            view.estimatedBytes = registry.withLock { registry in
                registry.install(made, from: work)
                return registry.estimatedBytes
            }
            view.taken = made
        }
        return view
    }

    /// The figures but the sites'; the order only when it is current.
    private init(_ registry: inout RecipientRegistry, current: Int64, first: Int64) {
        entries = registry.entries
        taken = registry.currentOrder
        sites = []
        // Copying an empty Deque into an Array writes the count of the shared empty-array storage, which
        // ThreadSanitizer reports as a race between two monitors taking snapshots at once: skip the copy.
        recentPrunes = registry.pruneLog.isEmpty ? [] : Array(registry.pruneLog)
        prunedByType = Dictionary(uniqueKeysWithValues: registry.prunedByType.values.map { ($0.mailType, $0.count) })
        pruned = registry.pruned
        scopes = registry.scopes.records
        // Copied here, at the snapshot's cost, so that the app's next registration does not copy the table.
        leakChanges = registry.leakWatch.changed.isEmpty ? [] : Array(registry.leakWatch.changed.keys)
        leakChangesLostAt = registry.leakWatch.lostAt
        origin = registry.origin
        prunesSeries = Array(repeating: 0, count: Int(current - first))
        registry.prunes.accumulate(lane: 0, from: first, into: &prunesSeries)
        estimatedBytes = registry.estimatedBytes
    }
}
