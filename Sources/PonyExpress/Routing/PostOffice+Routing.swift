extension PostOffice.State {
    mutating func bucket(for key: ObjectIdentifier, make: () -> Bucket) -> Bucket {
        if let bucket = buckets[key] { return bucket }
        let bucket = make()
        buckets[key] = bucket
        // A new registered type receives mail of the types already posted that are it or its subclasses.
        for (postedKey, relation) in relations where bucket.acceptsType(relation.postedType) {
            relations[postedKey]?.buckets.append(bucket)
            dependents[key, default: []].append(postedKey)
            routes.set(nil, for: postedKey)
        }
        return bucket
    }

    mutating func invalidateRoutes(through bucketKey: ObjectIdentifier) {
        guard let posted = dependents[bucketKey] else { return }
        for key in posted { routes.set(nil, for: key) }
    }

    mutating func buildRoute(for type: any Any.Type) -> Route {
        let key = ObjectIdentifier(type)
        let relation: Relation
        if let known = relations[key] {
            relation = known
        } else {
            relation = Relation(postedType: type, buckets: buckets.values.filter { $0.acceptsType(type) })
            relations[key] = relation
            for bucket in relation.buckets { dependents[ObjectIdentifier(bucket.mailType), default: []].append(key) }
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
        routes.set(route, for: key)
        return route
    }
}
