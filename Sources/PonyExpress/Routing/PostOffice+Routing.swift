extension PostOffice.State {
    /// The bucket of a registered type, made if there is none yet; not retained, since the table keeps it.
    mutating func bucket(for key: ObjectIdentifier, make: () -> Bucket) -> Unmanaged<Bucket> {
        if let bucket = buckets.unowned(key) { return bucket }
        let bucket = make()
        buckets.set(bucket, for: key)
        bucketsInOrder.append(bucket)
        // A new registered type receives mail of the types already posted that are it or its subclasses.
        for (postedKey, relation) in relations where bucket.acceptsType(relation.postedType) {
            relations[postedKey]?.buckets.append(bucket)
            bucket.dependents.append(postedKey)
            dropRoute(for: postedKey)
        }
        return .passUnretained(bucket)
    }

    /// Takes one registration, which the caller has just taken out of ``registrations``, out of its bucket too, and
    /// drops the routes through it.
    /// - Returns: The bucket's reference to the registration, now the caller's.
    mutating func removeFromBucket(_ registration: Unmanaged<Registration>) -> Registration? {
        let key = registration._withUnsafeGuaranteedRef { ObjectIdentifier($0.mailType) }
        guard let bucket = buckets.unowned(key) else { return nil }
        return bucket._withUnsafeGuaranteedRef { bucket in
            let removed = bucket.remove(registration)
            invalidateRoutes(through: bucket)
            return removed
        }
    }

    mutating func invalidateRoutes(through bucket: Bucket) {
        for key in bucket.dependents { dropRoute(for: key) }
    }

    mutating func buildRoute(for type: any Any.Type) -> Route {
        let key = ObjectIdentifier(type)
        let relation: Relation
        if let known = relations[key] {
            relation = known
        } else {
            relation = Relation(postedType: type, buckets: buckets.all.filter { $0.acceptsType(type) })
            relations[key] = relation
            for bucket in relation.buckets { bucket.dependents.append(key) }
        }
        let registrations: ContiguousArray<Registration>
        switch relation.buckets.count {
        case 0: registrations = []
        case 1: registrations = relation.buckets[0].registrations
        default:
            var merged = ContiguousArray(relation.buckets.lazy.flatMap(\.registrations))
            merged.sort { $0.id < $1.id }
            registrations = merged
        }
        let route = Route(
            registrations: registrations, taps: taps, mailType: type, keepers: keepers(forPosted: type))
        let slot: RouteSlot
        if let existing = routes[key] {
            slot = existing
        } else {
            slot = RouteSlot()
            routes.set(slot, for: key)
        }
        retire(slot.replace(with: route))
        return route
    }

    /// The route of a posted type, if it is built.
    @inline(__always)
    func route(for key: ObjectIdentifier) -> Route? {
        routes[key]?.route
    }

    /// The slot of a posted type, when the calling thread's cache does not remember it yet.
    @inline(__always)
    func slotToRemember(
        for key: ObjectIdentifier, office: ObjectIdentifier, runs: UnsafeMutablePointer<ThreadRuns>
    ) -> RouteSlot? {
        guard let slot = routes[key] else { return nil }
        let remembered = runs.pointee.cache.slot(office: office, mailType: key)
        return remembered?.toOpaque() == Unmanaged.passUnretained(slot).toOpaque() ? nil : slot
    }

    /// Takes the route of a posted type out of its slot, to be rebuilt by the next post.
    mutating func dropRoute(for key: ObjectIdentifier) {
        guard let slot = routes[key], slot.route != nil else { return }
        retire(slot.replace(with: nil))
    }

    /// Takes every route out of its slot.
    mutating func dropAllRoutes() {
        for slot in routes.all where slot.route != nil { retire(slot.replace(with: nil)) }
    }

    private mutating func retire(_ route: Unmanaged<Route>?) {
        if let route { retired.append(route) }
    }

    /// Takes out of ``retired`` the routes that no post is reading any more, for the caller to release once it has
    /// released the lock.
    mutating func takeUnheldRoutes() -> [Unmanaged<Route>] {
        let held = ThreadRuns.heldRoutes()
        var freed: [Unmanaged<Route>] = []
        retired.removeAll { route in
            guard !held.contains(UInt(bitPattern: route.toOpaque())) else { return false }
            freed.append(route)
            return true
        }
        return freed
    }
}
