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
///   of that registration starts, queued deliveries included, and none runs on another thread: `unregister` waits
///   for a handler already running there to return (see ``unregister(_:)-(RecipientId)`` for the exceptions that
///   keep handlers from waiting for each other).
/// - No lock is held while a handler runs: handlers may post, register and unregister.
///
/// Every method may be called from any thread.
public final class PostOffice: @unchecked Sendable {
    /// The shared post office.
    public static let `default` = PostOffice()

    struct State {
        /// Registrations by registered mail type.
        var buckets = RouteTable<Bucket>()
        /// The same buckets in the order they were made (none is ever removed), for ``PostOffice/prune(checking:)``
        /// to walk round.
        var bucketsInOrder: [Bucket] = []
        /// Where ``PostOffice/prune(checking:)`` stopped: the bucket, in ``bucketsInOrder``, and the position in it.
        var pruneCursor = (bucket: 0, position: 0)
        /// Every live registration by id.
        var registrations = RegistrationTable()
        /// Where the next registration's id comes from.
        var ids = RecipientIds()
        /// For each posted dynamic type: the buckets its mail goes to. Changes only when a bucket is created.
        var relations: [ObjectIdentifier: Relation] = [:]
        /// Ready-made delivery lists by posted dynamic type, rebuilt after a change to any of their buckets or to
        /// the taps: each in a slot that posts read without the lock.
        var routes = RouteTable<RouteSlot>()
        /// Routes taken out of their slots while a post may still be reading them, freed once none is.
        var retired: [Unmanaged<Route>] = []
        /// The attached taps, `nil` when there are none; replaced as a whole when one is attached or detached.
        var taps: TapList?
        /// The last mail of each mail type that asked for it with ``PostOffice/keepLastMail(_:)``, by that type.
        var keepers: [ObjectIdentifier: MailKeeper] = [:]
        /// The recipient limits the app set, and what to do when a registration goes past one; `nil` until the app
        /// sets a limit or a handler, so that registering checks only this.
        var limits: RecipientLimits?
    }

    let state = LockedState()

    /// Creates an empty post office.
    public init() {}

    // MARK: - Removal

    /// Removes registrations; `reason` tells the tap whether this was an unregistration or a prune.
    ///
    /// An unregistration returns only when no other thread runs a handler of those registrations any more (see
    /// ``ThreadRuns``), including those of the ids another thread removed first; a prune does not wait.
    /// - Returns: The ids that were no longer registered: removed by another thread, or never known.
    @discardableResult
    func remove(
        _ ids: some Sequence<RecipientId>, pruned reason: Prune.Reason? = nil, object: ObjectIdentifier? = nil
    ) -> [RecipientId] {
        var missing: [RecipientId] = []
        let (removed, taps) = state.withLock { state -> ([Registration], TapList?) in
            var removed: [Registration] = []
            // By bucket: the registrations going, and the least and greatest of their ids.
            var touched: [ObjectIdentifier: (going: Set<ObjectIdentifier>, ids: ClosedRange<RecipientId>)] = [:]
            for id in ids {
                guard let entry = state.registrations.remove(id) else {
                    missing.append(id)
                    continue
                }
                // Held until the removal is reported: the bucket, which owns it, lets go below.
                let registration = entry.takeUnretainedValue()
                registration.isActive.store(false, ordering: .sequentiallyConsistent)
                let key = ObjectIdentifier(registration.mailType)
                var bucketEntry = touched[key] ?? ([], id...id)
                bucketEntry.going.insert(ObjectIdentifier(registration))
                bucketEntry.ids = min(id, bucketEntry.ids.lowerBound)...max(id, bucketEntry.ids.upperBound)
                touched[key] = bucketEntry
                removed.append(registration)
            }
            for (key, bucketEntry) in touched {
                guard let bucket = state.buckets[key] else { continue }
                // One pass per bucket, over the stretch between its first and last going, however many go. By
                // identity, not by `isActive`: a once registration whose run claimed it is inactive but still
                // registered until it retires.
                bucket.removeAll(bucketEntry.going, within: bucketEntry.ids)
                state.invalidateRoutes(through: bucket)
            }
            return (removed, state.taps)
        }
        // The ids someone else removed first, and the object's registrations someone else removed before its ids
        // were read, may still be running: an unregistration waits for them too.
        let others =
            reason != nil ? [] : missing.map { RunKey.id($0.rawValue) } + (object.map { [RunKey.object($0)] } ?? [])
        didRemove(removed, taps: taps, pruned: reason, alsoWaitingFor: others)
        return missing
    }

    /// Removes one registration, as removing a sequence of one id would, without building arrays and a set: what
    /// `unregister` of an id does.
    ///
    /// - Parameters:
    ///   - id: The registration.
    ///   - reason: Why it was pruned; `nil` for an unregistration.
    ///   - waits: Whether an unregistration waits for the registration's runs on other threads. A mail stream's end
    ///     does not: it runs where the stream's handler may wait for it (inside the consuming task's cancellation,
    ///     which a handler yielding to that task's stream waits for), and a stream that ended takes no more values,
    ///     so a run still under way has no effect to wait for.
    /// - Returns: Whether the id was registered.
    @discardableResult
    func remove(_ id: RecipientId, pruned reason: Prune.Reason? = nil, waits: Bool = true) -> Bool {
        let (removed, taps) = state.withLock { state -> (Registration?, TapList?) in
            guard let entry = state.registrations.remove(id) else { return (nil, nil) }
            entry._withUnsafeGuaranteedRef { $0.isActive.store(false, ordering: .sequentiallyConsistent) }
            let registration = state.removeFromBucket(entry)
            assert(registration != nil, "a registration in the id table is in its bucket")
            return (registration, state.taps)
        }
        guard let removed else {
            // Removed by another thread first, whose run may still be under way: an unregistration waits for it.
            if reason == nil, waits {
                ThreadRuns.waitForRuns(of: EmptyCollection<Registration>(), orKeys: [RunKey.id(id.rawValue)])
            }
            return false
        }
        didRemove(CollectionOfOne(removed), taps: taps, pruned: reason, waits: waits)
        return true
    }

    /// Waits for the runs of unregistered registrations on other threads (and for runs entered under `others`, see
    /// ``RunKey``), then reports the removals to the taps.
    private func didRemove(
        _ removed: some Collection<Registration>, taps: TapList?, pruned reason: Prune.Reason?,
        alsoWaitingFor others: [UInt] = [], waits: Bool = true
    ) {
        // Only taps read the time: without them, an unregistration does not read the clock.
        let time = taps == nil ? 0 : MonotonicClock.now()
        if reason == nil, waits { ThreadRuns.waitForRuns(of: removed, orKeys: others) }
        guard let taps else { return }
        for registration in removed {
            let event: TapEvent
            if let reason {
                event = .pruned(Prune(recipient: registration.info, reason: reason, time: time))
            } else {
                event = .unregistered(
                    Unregistration(id: registration.id, mailType: TypeIdentity(registration.mailType), time: time))
            }
            taps.emit(event)
        }
    }

    /// The route for posted mail. The static type is looked up first: for a struct or an enum it is the dynamic
    /// type, which spares the runtime call that finds the dynamic type; only class mail looks again.
    ///
    /// A route of a type that keeps its last mail keeps this one here, under the same lock: a registration that
    /// replays kept mail either replays this mail or is on the route that delivers it. Other routes pay one check.
    ///
    /// This is the way with the lock; a thread that found its route here finds it in its ``RouteCache`` next time.
    @inline(__always)
    func route<M: SendableMetatype>(for mail: M, sender: AnyObject?, runs: UnsafeMutablePointer<ThreadRuns>) -> Route {
        let key = ObjectIdentifier(M.self)
        let office = ObjectIdentifier(self)
        let (route, slot) = state.withLock { state -> (Route, RouteSlot?) in
            let route = state.route(for: key) ?? state.buildRoute(for: M.self)
            guard route.isClassMail else {
                guard !route.keepsMail else {
                    // A route that keeps mail always takes the lock: no use remembering its slot.
                    route.keep(mail, sender: sender)
                    return (route, nil)
                }
                return (route, state.slotToRemember(for: key, office: office, runs: runs))
            }
            let dynamicType = type(of: mail)
            let dynamicRoute =
                dynamicType == M.self
                ? route : state.route(for: ObjectIdentifier(dynamicType)) ?? state.buildRoute(for: dynamicType)
            if dynamicRoute.keepsMail { dynamicRoute.keep(mail, sender: sender) }
            // Neither does mail of a subclass, which needs another route than its static type's.
            guard dynamicType == M.self, !route.keepsMail else { return (dynamicRoute, nil) }
            return (route, state.slotToRemember(for: key, office: office, runs: runs))
        }
        if let slot { runs.pointee.cache.remember(slot, office: office, mailType: key) }
        return route
    }

    /// The route for posted mail without the lock, from the slot this thread remembers, held in this thread's
    /// ``ThreadRuns/routes`` until the caller pops it to the returned depth; `nil` when the lock must be taken: the
    /// slot is not remembered or empty, the route keeps mail (which it does under the lock), or the mail is of a
    /// subclass of its static type.
    @inline(__always)
    func heldRoute<M: SendableMetatype>(
        for mail: M, runs: UnsafeMutablePointer<ThreadRuns>
    ) -> (route: Unmanaged<Route>, depth: Int)? {
        guard let slot = runs.pointee.cache.slot(office: ObjectIdentifier(self), mailType: ObjectIdentifier(M.self)),
            let held = slot._withUnsafeGuaranteedRef({ $0.hold(in: runs.pointee.routes) })
        else { return nil }
        let isDirect = held.route._withUnsafeGuaranteedRef { route in
            !route.keepsMail && (!route.isClassMail || type(of: mail) == M.self)
        }
        guard isDirect else {
            runs.pointee.routes.pop(to: held.depth)
            return nil
        }
        return held
    }

    // MARK: - Taps

    /// Attaches a tap, which from now on sees every event of this post office.
    ///
    /// Attaching the same tap twice has no further effect.
    public func attach(_ tap: any DeliveryTap) {
        state.withLock { state in
            let taps = state.taps?.all ?? []
            guard !taps.contains(where: { $0 === tap }) else { return }
            state.taps = TapList(taps + [tap])
            state.dropAllRoutes()
        }
    }

    /// Detaches a tap. Events of posts already under way may still reach it.
    public func detach(_ tap: any DeliveryTap) {
        state.withLock { state in
            state.taps = TapList((state.taps?.all ?? []).filter { $0 !== tap })
            state.dropAllRoutes()
        }
    }
}
