/// All registrations for one registered mail type, in registration order.
final class Bucket {
    let mailType: any Any.Type
    /// Whether mail of a posted dynamic type belongs here: the registered type itself or one of its subclasses.
    let acceptsType: (_ type: any Any.Type) -> Bool
    /// Only read and changed under the post office's lock, so its accesses are not checked at run time as well.
    @exclusivity(unchecked) var registrations: ContiguousArray<Registration> = []
    /// The posted dynamic types whose mail comes here: the routes to drop when the bucket changes.
    @exclusivity(unchecked) var dependents: [ObjectIdentifier] = []
    /// How many registrations the bucket may hold before a sweep for released recipients begins; 0 while one is
    /// under way. See ``sweep()``.
    @exclusivity(unchecked) var sweepAt = Bucket.smallestSweep
    /// Where the sweep under way has come to.
    @exclusivity(unchecked) private var sweepCursor = 0

    /// A bucket this small is never swept: a post prunes it, and a leak this small is not worth a register's time.
    static let smallestSweep = 64
    /// How many registrations a register looks at while a sweep is under way.
    static let sweepStep = 8

    init<Contents>(for _: Contents.Type) {
        mailType = Contents.self
        acceptsType = { $0 is Contents.Type }
    }

    /// Takes `registration` out and hands over the bucket's reference to it; `nil` when it is not here. The last one
    /// registered is the likeliest to go first; otherwise, since a bucket is in id order, it is found by binary
    /// search. Entries are compared and read unretained, so the search makes no reference-counting
    /// read-modify-write.
    func remove(_ registration: Unmanaged<Registration>) -> Registration? {
        let address = registration.toOpaque()
        let index = registrations.withUnsafeBufferPointer { buffer -> Int? in
            let entries = UnsafeRawBufferPointer(buffer).assumingMemoryBound(to: Unmanaged<Registration>.self)
            guard let last = entries.last else { return nil }
            if last.toOpaque() == address { return entries.count - 1 }
            let low = Self.firstIndex(in: entries, notBelow: registration._withUnsafeGuaranteedRef(\.id))
            return low < entries.count && entries[low].toOpaque() == address ? low : nil
        }
        guard let index else { return nil }
        return index == registrations.count - 1 ? registrations.removeLast() : registrations.remove(at: index)
    }

    /// Takes out the registrations in `going`, whose ids all lie in `ids`. The bucket is in id order, so only the
    /// stretch from the first of them to the last is searched, and those after it move up in one copy: a prune of
    /// 1,024 neighbours in a bucket of 100,000 looks at about 1,024 entries, not 100,000.
    func removeAll(_ going: Set<ObjectIdentifier>, within ids: ClosedRange<RecipientId>) {
        let (low, high) = registrations.withUnsafeBufferPointer { buffer in
            let entries = UnsafeRawBufferPointer(buffer).assumingMemoryBound(to: Unmanaged<Registration>.self)
            return (
                Self.firstIndex(in: entries, notBelow: ids.lowerBound),
                Self.firstIndex(in: entries, notBelow: RecipientId(rawValue: ids.upperBound.rawValue &+ 1))
            )
        }
        guard low < high else { return }
        let kept = registrations[low..<high].filter { !going.contains(ObjectIdentifier($0)) }
        if kept.count < high - low { registrations.replaceSubrange(low..<high, with: kept) }
    }

    /// The index of the first entry whose id is `id` or above, by binary search; entries are read unretained.
    private static func firstIndex(
        in entries: UnsafeBufferPointer<Unmanaged<Registration>>, notBelow id: RecipientId
    )
        -> Int
    {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle]._withUnsafeGuaranteedRef(\.id) < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// One step of the sweep that finds registrations whose recipient object or exact sender was released, for a
    /// bucket that no post prunes: a mail type registered for and never posted (a screen's `LogoutEvent` recipients
    /// dying by the thousand). Called by `register` under the post office's lock when the bucket reached
    /// ``sweepAt``: each such register looks at the next ``sweepStep`` registrations, so that a bucket growing by
    /// one a register is swept eight times as fast as it grows, and when the sweep has passed them all the next one
    /// begins when the bucket has twice the registrations that stay. A bucket that does not grow is never swept, so
    /// a register pays one comparison; one that does pays about two weak loads a registration at most, amortised,
    /// and holds at most about twice its live registrations and an eighth, or 64.
    /// - Returns: The released registrations it found, which the caller prunes once the lock is released.
    func sweep() -> [(id: RecipientId, reason: Prune.Reason)] {
        if sweepAt != 0 {
            sweepAt = 0
            sweepCursor = 0
        }
        var released: [(id: RecipientId, reason: Prune.Reason)] = []
        let step = findReleased(from: sweepCursor, checking: Self.sweepStep, into: &released)
        sweepCursor = step.next
        if step.reachedEnd {
            sweepAt = max(Self.smallestSweep, 2 * (registrations.count - released.count))
        }
        return released
    }

    /// Checks up to `count` registrations from `position` for a released recipient object or exact sender, and adds
    /// the active ones it finds to `released`: one step of ``sweep()`` or of ``PostOffice/prune(checking:)``.
    /// - Returns: How many it checked, whether it reached the bucket's end, and where the next step starts once the
    ///   released ones have left the bucket (those after them move back as many places).
    func findReleased(
        from position: Int, checking count: Int, into released: inout [(id: RecipientId, reason: Prune.Reason)]
    ) -> (checked: Int, reachedEnd: Bool, next: Int) {
        // Removals since the last step shortened the bucket: the position may stand past its end.
        let start = min(position, registrations.count)
        let end = min(registrations.count, start + count)
        let before = released.count
        for registration in registrations[start..<end] where registration.isActive.load(ordering: .relaxed) {
            if let reason = registration.releaseReason { released.append((registration.id, reason)) }
        }
        return (end - start, end == registrations.count, end - (released.count - before))
    }
}
