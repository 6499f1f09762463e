import Dispatch
import Synchronization

/// A type-safe replacement for `NotificationCenter`: recipients register for a ``Mail`` type, and posting a value
/// delivers it to every recipient registered for its type.
///
/// ```swift
/// struct ExampleNotification: Mail {
///     var info: Int
///     var other: Float
/// }
///
/// final class ExampleRecipient {
///     init() {
///         PostOffice.default.register(self, ExampleRecipient.receive)
///     }
///
///     func receive(notification: ExampleNotification) {
///         // ... process the notification
///     }
/// }
///
/// let recipient = ExampleRecipient()
/// PostOffice.default.post(ExampleNotification(info: 12, other: 15))
/// ```
///
/// ## Delivery rules
/// - A registration for `T` receives every posted value whose dynamic type is `T` or a subclass of `T`.
/// - All recipients of a post run in registration order, whichever of the posted type's superclasses they
///   registered for.
/// - Without a queue, a handler runs synchronously on the posting thread before `post` returns; with a queue, it runs
///   asynchronously on that queue.
/// - A recipient registered while a post is being delivered does not receive that post. One unregistered during a
///   post does not receive it if its turn had not come. Once ``unregister(_:)-(RecipientId)`` returns, no handler
///   of that registration starts, queued deliveries included; a handler already running on another thread finishes.
/// - No lock is held while a handler runs: handlers may post, register and unregister.
///
/// Every method may be called from any thread.
public final class PostOffice: @unchecked Sendable {
    /// The shared post office.
    public static let `default` = PostOffice()

    struct State {
        /// Registrations by registered mail type.
        var buckets: [ObjectIdentifier: Bucket] = [:]
        /// Every live registration by id.
        var registrations: [RecipientId: Registration] = [:]
        /// For each posted dynamic type: the buckets its mail goes to. Changes only when a bucket is created.
        var relations: [ObjectIdentifier: Relation] = [:]
        /// The posted dynamic types that go to a bucket: the routes to drop when that bucket changes.
        var dependents: [ObjectIdentifier: [ObjectIdentifier]] = [:]
        /// Ready-made delivery lists by posted dynamic type, rebuilt after a change to any of their buckets.
        var routes: [ObjectIdentifier: Route] = [:]
        var taps: [any DeliveryTap] = []
    }

    let state = Locked(State())

    /// Creates an empty post office.
    public init() {}

    // MARK: - The one registration path

    func add(_ request: RegistrationRequest) -> RecipientId {
        let key = ObjectIdentifier(request.mailType)
        let (info, taps) = state.withLock { state -> (RecipientInfo, [any DeliveryTap]) in
            // Ids are taken under the lock so that id order is registration order within this post office.
            let info = RecipientInfo(
                id: .next(), mailType: TypeIdentity(request.mailType), kind: request.kind,
                objectIdentifier: request.object.map(ObjectIdentifier.init), sender: request.sender,
                queueLabel: request.queue?.label, site: request.site, registeredAt: now())
            let registration = Registration(
                info: info, handler: request.handler, queue: request.queue, object: request.object,
                exactSender: request.exactSender)
            let bucket = state.bucket(for: key, make: request.makeBucket)
            bucket.registrations.append(registration)
            state.registrations[info.id] = registration
            state.invalidateRoutes(through: key)
            return (info, state.taps)
        }
        for tap in taps { tap.receive(.registered(info)) }
        return info.id
    }

    /// Removes registrations; `reason` tells the tap whether this was an unregistration or a prune.
    func remove(_ ids: some Sequence<RecipientId>, pruned reason: Prune.Reason? = nil) {
        let time = now()
        let (removed, taps) = state.withLock { state -> ([Registration], [any DeliveryTap]) in
            var removed: [Registration] = []
            for id in ids {
                guard let registration = state.registrations.removeValue(forKey: id) else { continue }
                registration.isActive.store(false, ordering: .releasing)
                let key = ObjectIdentifier(registration.info.mailType.type)
                if let bucket = state.buckets[key] {
                    bucket.registrations.removeAll { $0 === registration }
                }
                state.invalidateRoutes(through: key)
                removed.append(registration)
            }
            return (removed, state.taps)
        }
        guard !taps.isEmpty else { return }
        for registration in removed {
            let event: TapEvent
            if let reason {
                event = .pruned(Prune(recipient: registration.info, reason: reason, time: time))
            } else {
                event = .unregistered(
                    Unregistration(id: registration.id, mailType: registration.info.mailType, time: time))
            }
            for tap in taps { tap.receive(event) }
        }
    }

    /// The route for a posted dynamic type, and the taps to report to.
    @inline(__always)
    func route(for type: any Any.Type) -> (Route, [any DeliveryTap]) {
        state.withLock { state in
            let key = ObjectIdentifier(type)
            if let route = state.routes[key] { return (route, state.taps) }
            return (state.buildRoute(for: type, key: key), state.taps)
        }
    }

    // MARK: - Taps

    /// Attaches a tap, which from now on sees every event of this post office.
    ///
    /// Attaching the same tap twice has no further effect.
    public func attach(_ tap: any DeliveryTap) {
        state.withLock { state in
            guard !state.taps.contains(where: { $0 === tap }) else { return }
            state.taps.append(tap)
        }
    }

    /// Detaches a tap. Events of posts already under way may still reach it.
    public func detach(_ tap: any DeliveryTap) {
        state.withLock { state in state.taps.removeAll { $0 === tap } }
    }
}

/// The buckets that mail of one posted dynamic type goes to.
struct Relation {
    let postedType: any Any.Type
    var buckets: [Bucket]
}

extension PostOffice.State {
    mutating func bucket(for key: ObjectIdentifier, make: () -> Bucket) -> Bucket {
        if let bucket = buckets[key] { return bucket }
        let bucket = make()
        buckets[key] = bucket
        // A new registered type receives mail of the types already posted that are it or its subclasses.
        for (postedKey, relation) in relations where bucket.acceptsType(relation.postedType) {
            relations[postedKey]?.buckets.append(bucket)
            dependents[key, default: []].append(postedKey)
            routes[postedKey] = nil
        }
        return bucket
    }

    mutating func invalidateRoutes(through bucketKey: ObjectIdentifier) {
        guard let posted = dependents[bucketKey] else { return }
        for key in posted { routes[key] = nil }
    }

    mutating func buildRoute(for type: any Any.Type, key: ObjectIdentifier) -> Route {
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
        let route = Route(registrations: registrations)
        routes[key] = route
        return route
    }
}
