import PonyExpress

/// The live registrations in a snapshot's order, as plain values: grouped by registered mail type, by id (that is,
/// registration order) within a type.
///
/// The ``RecipientRegistry`` keeps the last one built. While no registration changed, a snapshot takes it as it
/// is; after a few changes, the snapshot patches it (``patched(with:entries:)``): only the groups of the changed mail
/// types are ordered again, so that a viewer refreshing an app of 100,000 registrations neither copies whole entries
/// nor sorts them all because one of them came or went. Building and patching run outside the registry's lock, on
/// what ``RecipientRegistry/takeOrderWork()`` took under it (``OrderWork``): the app's `register` never waits for them.
struct RegistrationOrder {
    private(set) var registrations: [LiveRegistration]
    /// The registrations of each registered mail type.
    private(set) var ranges: [TypeIdentity: Range<Int>]
    /// The distinct queue labels of the registrations, which ``LiveRegistration/queue`` indexes. A patch appends
    /// labels and never removes one, so it may hold labels no live registration uses any more.
    private(set) var queueLabels: [String]
    /// How many labels the last full build found: a patched order whose labels grew far past it is built again.
    let builtLabelCount: Int

    /// Orders the registry's entries.
    init(_ entries: RecipientRegistry.Entries) {
        var groups: [TypeIdentity: [LiveRegistration]] = [:]
        var queueLabels: [String] = []
        for entry in entries.values {
            groups[entry.info.mailType, default: []].append(
                LiveRegistration(entry, queue: Self.queue(of: entry, in: &queueLabels)))
        }
        var registrations: [LiveRegistration] = []
        registrations.reserveCapacity(entries.count)
        var ranges: [TypeIdentity: Range<Int>] = [:]
        for (mailType, group) in groups {
            ranges[mailType] = registrations.count..<registrations.count + group.count
            registrations += group.sorted { $0.id < $1.id }
        }
        self.registrations = registrations
        self.ranges = ranges
        self.queueLabels = queueLabels
        builtLabelCount = queueLabels.count
    }

    private init(
        registrations: [LiveRegistration], ranges: [TypeIdentity: Range<Int>], queueLabels: [String],
        builtLabelCount: Int
    ) {
        self.registrations = registrations
        self.ranges = ranges
        self.queueLabels = queueLabels
        self.builtLabelCount = builtLabelCount
    }

    /// The index of a registration's queue label in `labels`, added if new; `nil` for synchronous delivery.
    private static func queue(of entry: RecipientRegistry.Entry, in labels: inout [String]) -> Int? {
        guard let label = entry.info.queueLabel else { return nil }
        // Few distinct labels, each one string object shared by its registrations: compared, not hashed.
        if let known = labels.lastIndex(of: label) { return known }
        labels.append(label)
        return labels.count - 1
    }

    /// This order after `changes`: the groups of the mail types they touch are made again from `entries` (the
    /// registry's table after the changes), the others copied as they are.
    func patched(with changes: Changes, entries: RecipientRegistry.Entries) -> RegistrationOrder {
        var queueLabels = self.queueLabels
        var added: [TypeIdentity: [LiveRegistration]] = [:]
        for id in changes.added {
            // Gone again since, or already in the order (when it also changed otherwise): the group is made anew.
            guard let entry = entries[id] else { continue }
            added[entry.info.mailType, default: []].append(
                LiveRegistration(entry, queue: Self.queue(of: entry, in: &queueLabels)))
        }
        var registrations: [LiveRegistration] = []
        registrations.reserveCapacity(self.registrations.count + changes.added.count)
        var ranges: [TypeIdentity: Range<Int>] = [:]
        ranges.reserveCapacity(self.ranges.count + added.count)
        func append(_ mailType: TypeIdentity, _ group: some Collection<LiveRegistration>) {
            guard !group.isEmpty else { return }
            ranges[mailType] = registrations.count..<registrations.count + group.count
            registrations.append(contentsOf: group)
        }
        for (mailType, range) in self.ranges {
            let group = self.registrations[range]
            guard changes.mailTypes.contains(mailType) else {
                append(mailType, group)
                continue
            }
            // Still live, with their duplicate marks as they are now; the added ones (higher ids, in the usual
            // case) merged in by id.
            var kept = group.compactMap { registration -> LiveRegistration? in
                guard !changes.removed.contains(registration.id), let entry = entries[registration.id] else {
                    return nil
                }
                return registration.marked(duplicate: entry.isDuplicate)
            }
            if let new = added.removeValue(forKey: mailType) { kept = Self.merged(kept + new) }
            append(mailType, kept)
        }
        for (mailType, group) in added { append(mailType, Self.merged(group)) }
        return RegistrationOrder(
            registrations: registrations, ranges: ranges, queueLabels: queueLabels, builtLabelCount: builtLabelCount)
    }

    /// Registrations by id, each once: an id registered, removed and registered again is in a patch twice.
    private static func merged(_ group: [LiveRegistration]) -> [LiveRegistration] {
        var merged: [LiveRegistration] = []
        merged.reserveCapacity(group.count)
        for registration in group.sorted(by: { $0.id < $1.id }) where merged.last?.id != registration.id {
            merged.append(registration)
        }
        return merged
    }

    var estimatedBytes: Int {
        registrations.capacity * MemoryLayout<LiveRegistration>.stride
            + ranges.capacity * (MemoryLayout<TypeIdentity>.stride + MemoryLayout<Range<Int>>.stride)
    }
}

/// What building the next ``RegistrationOrder`` needs, taken from the registry under its lock in constant time (the
/// entries are a persistent tree) and used outside it.
struct OrderWork {
    /// The last order, to patch, or `nil` to build from scratch.
    let base: RegistrationOrder?
    /// What changed since `base` was built.
    let changes: RegistrationOrder.Changes
    /// The live registrations when the work was taken.
    let entries: RecipientRegistry.Entries
    /// The registry's generation when the work was taken (``RecipientRegistry/install(_:from:)``).
    let generation: UInt64

    /// The order of `entries`: `base` patched, or built anew.
    func build() -> RegistrationOrder {
        base.map { $0.patched(with: changes, entries: entries) } ?? RegistrationOrder(entries)
    }
}

extension RegistrationOrder {
    /// The registrations that came, went or changed their duplicate mark since an order was built.
    struct Changes {
        /// The mail types of every change.
        private(set) var mailTypes: Set<TypeIdentity> = []
        private(set) var added: [RecipientId] = []
        private(set) var removed: Set<RecipientId> = []
        /// Changes recorded, each counted once per event.
        private(set) var count = 0

        var isEmpty: Bool { count == 0 }

        mutating func add(_ id: RecipientId, of mailType: TypeIdentity) {
            mailTypes.insert(mailType)
            added.append(id)
            count += 1
        }

        mutating func remove(_ id: RecipientId, of mailType: TypeIdentity) {
            mailTypes.insert(mailType)
            removed.insert(id)
            count += 1
        }

        /// A registration whose duplicate mark changed: its group is made again from the registry's table.
        mutating func mark(_ mailType: TypeIdentity) {
            mailTypes.insert(mailType)
            count += 1
        }
    }
}
