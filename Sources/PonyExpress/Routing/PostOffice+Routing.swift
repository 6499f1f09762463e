extension PostOffice.State {
    mutating func bucket(for key: ObjectIdentifier, make: () -> Bucket) -> Bucket {
        if let bucket = buckets[key] { return bucket }
        let bucket = make()
        buckets.set(bucket, for: key)
        // A new registered type receives mail of the types already posted that are it or its subclasses.
        for (postedKey, relation) in relations where bucket.acceptsType(relation.postedType) {
            relations[postedKey]?.buckets.append(bucket)
            bucket.dependents.append(postedKey)
            dropRoute(for: postedKey)
        }
        return bucket
    }

    /// Takes one registration out of its bucket and drops the routes through it. The last one registered is the
    /// likeliest to go first; otherwise, since a bucket is in id order, the registration is found by binary search.
    mutating func removeFromBucket(_ registration: Registration) {
        guard let bucket = buckets[ObjectIdentifier(registration.mailType)] else { return }
        if bucket.registrations.last === registration {
            bucket.registrations.removeLast()
        } else {
            let id = registration.id
            var low = 0
            var high = bucket.registrations.count
            while low < high {
                let middle = (low + high) / 2
                if bucket.registrations[middle].id < id { low = middle + 1 } else { high = middle }
            }
            if low < bucket.registrations.count, bucket.registrations[low] === registration {
                bucket.registrations.remove(at: low)
            }
        }
        invalidateRoutes(through: bucket)
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
