import DequeModule
import HashTreeCollections
import PonyExpress

/// The live registrations the monitor knows, their sites, prunes and duplicate objects.
///
/// Touched only on register, unregister and prune (and by a delivery's first sight of a recipient on a shard), so
/// it sits behind its own lock, away from the posting hot path.
struct RecipientRegistry {
    /// The live registrations by id: a persistent hash tree, so that a snapshot takes the table as it is, in constant
    /// time, and a registration made while the snapshot still reads it copies a path of the tree, not the table.
    /// (With a `Dictionary`, that registration copied all 100,000 entries under the lock: 140 ms at p99 with one
    /// viewer, `ponybench watch-cost`.)
    typealias Entries = TreeDictionary<RecipientId, Entry>

    struct Entry {
        let info: RecipientInfo
        /// When it was registered, on the monitor's clock.
        let registeredAt: Nanoseconds
        var siteIndex: Int
        var isDuplicate = false
        /// How many times kept mail was replayed to it (`Delivery.isReplay`).
        var replays: UInt64 = 0
    }

    /// The registrations of one object for one mail type.
    struct DuplicateKey: Hashable {
        let mailType: ObjectIdentifier
        let object: ObjectIdentifier
    }

    struct DuplicateGroup {
        var ids: [RecipientId] = []
    }

    let settings: MonitorSettings
    let ringCapacity: Int
    /// The scopes that ended, and the registrations that outlived them.
    var scopes: ScopeLedger
    private(set) var entries: Entries = [:]
    /// The entries in a snapshot's order as the last snapshot had them; ``changes`` says what changed since.
    private var order: RegistrationOrder?
    /// What changed since ``order`` was built (or since the entries of a build under way were taken), while it is
    /// worth patching rather than building again.
    private var changes = RegistrationOrder.Changes()
    /// Whether a snapshot is building an order from entries it took (``takeOrderWork()``), outside the lock.
    private var isBuilding = false
    /// Counts the times changes were dropped: an order built from entries taken before a drop is no base for the
    /// changes recorded after it.
    private var generation: UInt64 = 0
    /// The duplicate groups whose members changed since the post office last confirmed which are alive.
    private var groupsChanged: Set<DuplicateKey> = []
    /// Row 0 is the "other" row.
    private(set) var rows: [SiteTally]
    private var rowIndex: [SiteKey: Int] = [:]
    /// Rows given to another site and not yet taken by ``takeReusedRows()``.
    private var reusedRows: [Int] = []
    private(set) var groups: [DuplicateKey: DuplicateGroup] = [:]
    private(set) var pruneLog: Deque<PruneRecord> = []
    private(set) var prunedByType: [ObjectIdentifier: (mailType: TypeIdentity, count: UInt64)] = [:]
    private(set) var pruned: UInt64 = 0
    /// Prunes per second, lane 0.
    private(set) var prunes: SecondRing
    /// While seeding from the post office: ids removed before the seed arrived, which must not be seeded.
    private var tombstones: Set<RecipientId>?
    /// When second 0 began, on the monitor's clock: what a registration's second is counted from.
    var origin: Nanoseconds = 0
    /// The registration seconds that changed lately at the sites that grew, for holding leaks from facts.
    private(set) var leakWatch = LeakWatch()

    init(settings: MonitorSettings, ringCapacity: Int) {
        scopes = ScopeLedger(capacity: settings.siteCapacity)
        self.settings = settings
        self.ringCapacity = ringCapacity
        rows = [SiteTally(key: nil, firstSecond: 0, ringCapacity: ringCapacity)]
        prunes = SecondRing(capacity: ringCapacity, lanes: 1)
    }

    // MARK: - Events

    /// Adds a registration made at `time` on the monitor's clock.
    mutating func register(_ info: RecipientInfo, time: Nanoseconds, second: Int64) {
        guard entries[info.id] == nil, tombstones?.contains(info.id) != true else { return }
        let index = row(for: SiteKey(info), second: second)
        rows[index].add(isBlock: info.kind == .block, second: second)
        rows[index].lastRegistration = info
        entries[info.id] = Entry(info: info, registeredAt: time, siteIndex: index)
        leakWatch.note(row: index, registeredAt: time, origin: origin, now: second)
        noteChange { $0.add(info.id, of: info.mailType) }
        if let object = info.objectIdentifier {
            let key = DuplicateKey(mailType: ObjectIdentifier(info.mailType.type), object: object)
            groups[key, default: DuplicateGroup()].ids.append(info.id)
            if groups[key]!.ids.count > 1 { groupsChanged.insert(key) }
        }
    }

    /// Counts a replay of kept mail to a registration; replays are rare, one at most per registration.
    mutating func countReplay(to id: RecipientId) {
        entries[id]?.replays += 1
    }

    /// Removes a registration; returns whether it was known.
    @discardableResult
    mutating func remove(_ id: RecipientId, prune: Prune?, second: Int64, time: Nanoseconds) -> Bool {
        scopes.remove(id)
        guard let entry = entries.removeValue(forKey: id) else {
            tombstones?.insert(id)
            // A registration whose object died before the monitor attached was never live to it, but its prune
            // still happened: count it, without a live registration to remove.
            if let prune {
                let index = row(for: SiteKey(prune.recipient), second: second)
                rows[index].countPrune(lifetime: prune.age, second: second)
                record(prune, second: second, time: time)
            }
            return false
        }
        let info = entry.info
        leakWatch.note(row: entry.siteIndex, registeredAt: entry.registeredAt, origin: origin, now: second)
        noteChange { $0.remove(id, of: info.mailType) }
        rows[entry.siteIndex].remove(
            isBlock: info.kind == .block, pruned: prune != nil,
            lifetime: time.elapsed(since: entry.registeredAt), second: second)
        if let object = info.objectIdentifier {
            let key = DuplicateKey(mailType: ObjectIdentifier(info.mailType.type), object: object)
            if var group = groups[key] {
                group.ids.removeAll { $0 == id }
                if group.ids.count < 2 {
                    if let survivor = group.ids.first, let kept = entries[survivor], kept.isDuplicate {
                        entries[survivor]?.isDuplicate = false
                        leakWatch.note(
                            row: kept.siteIndex, registeredAt: kept.registeredAt, origin: origin, now: second)
                        noteChange { $0.mark(info.mailType) }
                    }
                }
                groups[key] = group.ids.isEmpty ? nil : group
                if group.ids.isEmpty { groupsChanged.remove(key) }
            }
        }
        if let prune { record(prune, second: second, time: time) }
        return true
    }

    /// Counts a prune in the totals, by mail type and in the log.
    private mutating func record(_ prune: Prune, second: Int64, time: Nanoseconds) {
        let info = prune.recipient
        pruned &+= 1
        prunes.add(1, lane: 0, second: second)
        prunedByType[ObjectIdentifier(info.mailType.type), default: (info.mailType, 0)].count &+= 1
        if pruneLog.count >= settings.pruneLogCapacity { pruneLog.removeLast() }
        pruneLog.prepend(
            PruneRecord(
                recipientType: info.kind.objectType, mailType: info.mailType, site: info.site, lifetime: prune.age,
                reason: prune.reason, time: time))
    }

    /// The live registrations in a snapshot's order, when the one built for an earlier snapshot is still current.
    var currentOrder: RegistrationOrder? {
        changes.isEmpty && !isBuilding ? order : nil
    }

    /// What a snapshot needs to make the next order outside the lock, when the last one is not current: the last
    /// order and the changes since (or nothing to patch, and it builds from scratch), and the entries as they are
    /// now, all taken in constant time. Changes from now on are recorded against the order the snapshot will
    /// ``install(_:from:)``. One snapshot builds at a time (the monitor's snapshot lock).
    mutating func takeOrderWork() -> OrderWork {
        // A patch keeps the queue labels of the registrations it removes: build again once they pile up.
        let base = order.flatMap { $0.queueLabels.count <= 2 * $0.builtLabelCount + 16 ? $0 : nil }
        let work = OrderWork(base: base, changes: changes, entries: entries, generation: generation)
        changes = RegistrationOrder.Changes()
        isBuilding = true
        return work
    }

    /// Keeps the order a snapshot made from ``takeOrderWork()``'s work as the base of the changes recorded since, unless
    /// some were dropped meanwhile; then the next snapshot builds from scratch.
    mutating func install(_ built: RegistrationOrder, from work: OrderWork) {
        isBuilding = false
        if work.generation == generation {
            order = built
        } else {
            order = nil
            changes = RegistrationOrder.Changes()
        }
    }

    /// Records a change for the next patch of ``order``; past an eighth of its registrations, patching would cost
    /// about what building does, and the order is dropped instead.
    private mutating func noteChange(_ record: (inout RegistrationOrder.Changes) -> Void) {
        guard order != nil || isBuilding else { return }
        record(&changes)
        if changes.count > Swift.max(64, (order?.registrations.count ?? entries.count) / 8) {
            order = nil
            changes = RegistrationOrder.Changes()
            generation &+= 1
        }
    }

    /// The row of a live registration's site, or `nil` if it is not one.
    func siteIndex(of id: RecipientId) -> Int? {
        entries[id]?.siteIndex
    }

    // MARK: - Seeding

    mutating func beginSeeding() {
        tombstones = []
    }

    /// Adds the registrations the post office had when the monitor attached, except those removed meanwhile.
    /// `time` gives each one's registration time on the monitor's clock.
    mutating func finishSeeding(with infos: [RecipientInfo], second: Int64, time: (RecipientInfo) -> Nanoseconds) {
        let removed = tombstones ?? []
        tombstones = nil
        for info in infos where !removed.contains(info.id) {
            register(info, time: time(info), second: second)
        }
    }

    // MARK: - Duplicates

    /// The groups whose members changed since they were last checked against the post office, with their members;
    /// ``confirmDuplicates(in:alive:second:)`` checks them.
    mutating func takeGroupsToCheck() -> [(key: DuplicateKey, ids: [RecipientId])] {
        defer { groupsChanged.removeAll(keepingCapacity: true) }
        return groupsChanged.compactMap { key in groups[key].map { (key, $0.ids) } }
    }

    /// Marks as duplicates the members of the checked groups that the post office still has alive: two live
    /// registrations with one object identifier belong to one object. `alive` is `nil` when there is no post
    /// office to ask, and then every member counts. `second` is the second under way.
    mutating func confirmDuplicates(in keys: [DuplicateKey], alive: Set<RecipientId>?, second: Int64) {
        for key in keys {
            guard let group = groups[key] else { continue }
            let living = group.ids.filter { alive?.contains($0) ?? true }
            for id in group.ids {
                let isDuplicate = living.count > 1 && living.contains(id)
                guard let entry = entries[id], entry.isDuplicate != isDuplicate else { continue }
                entries[id]?.isDuplicate = isDuplicate
                leakWatch.note(row: entry.siteIndex, registeredAt: entry.registeredAt, origin: origin, now: second)
                noteChange { $0.mark(entry.info.mailType) }
            }
        }
    }

    // MARK: - Sites

    /// The row of `key`'s site, made on first sight.
    private mutating func row(for key: SiteKey, second: Int64) -> Int {
        if let index = rowIndex[key] { return index }
        let row = SiteTally(key: key, firstSecond: second, ringCapacity: ringCapacity)
        if rows.count - 1 < settings.siteCapacity {
            rows.append(row)
            rowIndex[key] = rows.count - 1
            return rows.count - 1
        }
        // Full: give the row of a site with no live registration to the new site, folding its counts into "other".
        guard let free = rows.indices.dropFirst().first(where: { rows[$0].live == 0 }) else { return 0 }
        rows[0].absorb(rows[free])
        if let old = rows[free].key { rowIndex[old] = nil }
        leakWatch.forget(row: free)
        rows[free] = row
        rowIndex[key] = free
        reusedRows.append(free)
        return free
    }

    /// The rows given to another site since the last call: the caller clears what the shards keep by row
    /// (``ShardState/clearSiteRuns(_:)``), outside this lock.
    mutating func takeReusedRows() -> [Int] {
        defer { reusedRows.removeAll() }
        return reusedRows
    }

    // MARK: - Leaks

    /// Watches the rows of the sites that grew, each with the registration seconds a snapshot read of it, unless the
    /// row went to another site since; drops the changes older than `oldest`.
    mutating func watch(_ grown: [(row: Int, key: SiteKey, seconds: [Int64])], now: Int64, oldest: Int64) {
        for site in grown where rows.indices.contains(site.row) && rows[site.row].key == site.key {
            leakWatch.watch(site.row, seconds: site.seconds, now: now)
        }
        leakWatch.expire(before: oldest)
    }

    // MARK: - Reset

    /// Forgets the statistics, keeping the live registrations.
    mutating func clearStatistics(second: Int64) {
        for index in rows.indices { rows[index].clearStatistics(second: second) }
        pruneLog.removeAll()
        scopes.removeAll()
        prunedByType.removeAll()
        pruned = 0
        prunes.clear()
        leakWatch = LeakWatch()
    }

    var estimatedBytes: Int {
        // The hash tree's items, plus a quarter for its nodes (an allowance, not measured); each duplicate group's
        // id array as a 32-byte header and two ids (summing the arrays would read every group under the lock).
        let entryBytes = entries.count * (MemoryLayout<RecipientId>.stride + MemoryLayout<Entry>.stride) * 5 / 4
        let rowBytes = rows.reduce(0) {
            $0 + MemoryLayout<SiteTally>.stride + $1.seconds.estimatedBytes + $1.lifetimes.estimatedBytes
        }
        let indexBytes = rowIndex.capacity * (MemoryLayout<SiteKey>.stride + MemoryLayout<Int>.stride)
        let groupBytes =
            groups.capacity * (MemoryLayout<DuplicateKey>.stride + MemoryLayout<DuplicateGroup>.stride)
            + groups.count * (32 + 2 * MemoryLayout<RecipientId>.stride)
        let logBytes = settings.pruneLogCapacity * MemoryLayout<PruneRecord>.stride
        let typeBytes = prunedByType.capacity * (MemoryLayout<ObjectIdentifier>.stride + 24)
        return entryBytes + rowBytes + indexBytes + groupBytes + logBytes + typeBytes + prunes.estimatedBytes
            + scopes.estimatedBytes + leakWatch.estimatedBytes
            + (order?.estimatedBytes ?? 0)
    }
}
