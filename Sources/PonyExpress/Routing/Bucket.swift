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

    init<Contents: SendableMetatype>(for _: Contents.Type) {
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
            let id = registration._withUnsafeGuaranteedRef(\.id)
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle]._withUnsafeGuaranteedRef(\.id) < id { low = middle + 1 } else { high = middle }
            }
            return low < entries.count && entries[low].toOpaque() == address ? low : nil
        }
        guard let index else { return nil }
        return index == registrations.count - 1 ? registrations.removeLast() : registrations.remove(at: index)
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
        // Unregistering shortens the bucket under a sweep: the cursor may stand past its end.
        let start = min(sweepCursor, registrations.count)
        let end = min(registrations.count, start + Self.sweepStep)
        for registration in registrations[start..<end] {
            if let reason = registration.released { released.append((registration.id, reason)) }
        }
        // The released ones leave the bucket before the next step, and those after them move back as many places.
        sweepCursor = end - released.count
        if end == registrations.count {
            sweepAt = max(Self.smallestSweep, 2 * (registrations.count - released.count))
        }
        return released
    }
}
