import Dispatch
import Synchronization

extension PostOffice {
    /// Posts mail to every recipient registered for its type.
    ///
    /// Synchronous recipients run on this thread before `post` returns; queued recipients are scheduled on their
    /// queues. A recipient whose sender filter does not accept `sender` is skipped.
    ///
    /// ```swift
    /// PostOffice.default.post(ExampleNotification(info: 12, other: 15), sender: sender)
    /// ```
    ///
    /// - Parameters:
    ///   - mail: The value to deliver. Its dynamic type decides who receives it: recipients of that type and of its
    ///     superclasses.
    ///   - sender: The object posting the mail, if any. Recipients can filter on its type or on the exact instance.
    public func post<M: Mail>(_ mail: M, sender: AnyObject? = nil) {
        post(mail, sender: sender, origin: .local, runs: ThreadRuns.current)
    }

    /// Posts mail that came from elsewhere: another process through a relay, or a `NotificationCenter` bridge.
    ///
    /// Delivery is exactly that of ``post(_:sender:)-(_,AnyObject?)``; only taps see the difference, in
    /// ``Posting/origin``, so that a monitor can tell relayed and bridged traffic from the app's own.
    ///
    /// - Parameters:
    ///   - mail: The value to deliver.
    ///   - sender: The object posting the mail, if any; a relay passes an object that names the remote process.
    ///   - origin: Where the mail came from.
    public func post<M: Mail>(_ mail: M, sender: AnyObject?, origin: PostOrigin) {
        post(mail, sender: sender, origin: origin, runs: ThreadRuns.current)
    }

    /// Posts verified mail, which only its `RequiredSender` may post, to every recipient registered for its type.
    ///
    /// Delivery is that of `Mail`'s `post(_:sender:)`; only the compiler's checks differ. The sender is not
    /// optional, and it must be a `RequiredSender` or an instance of a subclass of it:
    ///
    /// ```swift
    /// PostOffice.default.post(DownloadFinished(bytes: 512), sender: downloader)
    /// ```
    ///
    /// - Parameters:
    ///   - mail: The value to deliver. Its dynamic type decides who receives it: recipients of that type and of its
    ///     superclasses.
    ///   - sender: The object posting the mail.
    public func post<M: VerifiedMail>(_ mail: M, sender: M.RequiredSender) {
        post(mail, sender: sender, origin: .local, runs: ThreadRuns.current)
    }

    /// Posts verified mail that came from elsewhere: another process through a relay, or a bridge.
    ///
    /// Delivery is exactly that of `post(_:sender:)` for verified mail; only taps see the difference, in
    /// ``Posting/origin``.
    ///
    /// - Parameters:
    ///   - mail: The value to deliver.
    ///   - sender: The object posting the mail, which must be a `RequiredSender`.
    ///   - origin: Where the mail came from.
    public func post<M: VerifiedMail>(_ mail: M, sender: M.RequiredSender, origin: PostOrigin) {
        post(mail, sender: sender, origin: origin, runs: ThreadRuns.current)
    }

    /// Finds the route (this thread's held one when it can) and posts along it.
    @inline(__always)
    private func post<M: SendableMetatype>(
        _ mail: M, sender: AnyObject?, origin: PostOrigin, runs: UnsafeMutablePointer<ThreadRuns>
    ) {
        // Inside a timed handler run, a post times itself, so that the run can tell its own work from this post's.
        let nested = runs.pointee.nestedPosts.startPost()
        defer { if let nested { runs.pointee.nestedPosts.endPost(nested) } }
        if let held = heldRoute(for: mail, runs: runs) {
            held.route._withUnsafeGuaranteedRef { route in
                post(mail, sender: sender, origin: origin, along: route, runs: runs)
            }
            runs.pointee.routes.pop(to: held.depth)
            // A route retired while this post read it waits for this check to be freed.
            if state.hasRetired.load(ordering: .relaxed) { state.freeRetiredRoutes() }
            return
        }
        post(mail, sender: sender, origin: origin, along: route(for: mail, sender: sender, runs: runs), runs: runs)
    }

    /// Posts along a route: the post's event to taps, then delivery.
    @inline(__always)
    private func post<M: SendableMetatype>(
        _ mail: M, sender: AnyObject?, origin: PostOrigin, along route: Route, runs: UnsafeMutablePointer<ThreadRuns>
    ) {
        guard let unownedTaps = route.unownedTaps else {
            return deliver(mail, sender: sender, along: route, context: nil, runs: runs)
        }
        // The route holds its taps as long as this post holds the route: they are used without a retain and a
        // release, which are two atomic read-modify-writes.
        unownedTaps._withUnsafeGuaranteedRef { taps in
            let (time, isTimed) = taps.postTime(
                turns: runs.pointee.timingTurns, insideTimedRun: runs.pointee.nestedPosts.isInsideTimedRun)
            let posting = Posting(
                postId: runs.pointee.postIds.take(),
                mailType: route.mailType, senderType: sender.map { TypeIdentity(type(of: $0)) },
                matched: route.registrations.count, time: time, origin: origin)
            guard !taps.batching.isEmpty else {
                taps.emit(.posted(posting))
                return withUnsafePointer(to: TapContext(taps: taps, posting: posting, isTimed: isTimed)) { context in
                    deliver(mail, sender: sender, along: route, context: context, runs: runs)
                }
            }
            // Batching taps get the post in its last batch; the synchronous handler runs wait for them here, on
            // this thread's stack.
            taps.emitUnbatched(.posted(posting))
            withUnsafeTemporaryAllocation(of: HandlerRun.self, capacity: DeliveryBatch.capacity) { handlerRuns in
                var log = HandlerRunLog(handlerRuns.baseAddress!)
                withUnsafeMutablePointer(to: &log) { log in
                    withUnsafePointer(to: TapContext(taps: taps, posting: posting, isTimed: isTimed, log: log)) {
                        deliver(mail, sender: sender, along: route, context: $0, runs: runs)
                    }
                }
            }
        }
    }

    /// Offers the mail to every registration of the route, then hands the last handler runs to batching taps and
    /// prunes what the post found released.
    ///
    /// The tapped post's context lives on the posting thread's stack and is passed by address down to each handler
    /// run, which reads the fields it needs: passed as a value, it was copied whole for every delivery.
    @inline(__always)
    private func deliver<M: SendableMetatype>(
        _ mail: M, sender: AnyObject?, along route: Route, context: UnsafePointer<TapContext>?,
        runs: UnsafeMutablePointer<ThreadRuns>
    ) {
        // With taps attached: when the last synchronous handler finished, which is when the next one starts.
        guard !route.registrations.isEmpty else {
            if let context, let log = context.pointee.log {
                TapContext.emitBatch(of: context, from: log, completingPost: true)
            }
            return
        }
        var clock: Nanoseconds = 0
        if let context, context.pointee.isTimed { clock = context.pointee.posting.time }
        var released: [(id: RecipientId, reason: Prune.Reason)] = []
        // The post holds the route, which holds its registrations: they are visited without retaining each one (and
        // the array), which is most of the reference counting of a post.
        route.registrations.withUnsafeBufferPointer { registrations in
            let unretained = UnsafeRawBufferPointer(registrations).assumingMemoryBound(to: Unmanaged<Registration>.self)
            for entry in unretained {
                entry._withUnsafeGuaranteedRef { registration in
                    if let reason = offer(
                        mail, sender: sender, to: registration, context: context, clock: &clock, runs: runs)
                    {
                        released.append((registration.id, reason))
                    }
                }
            }
        }
        if let context, context.pointee.isTimed {
            runs.pointee.timingTurns.finished(
                elapsed: clock &- context.pointee.posting.time, recipients: route.registrations.count)
        }
        if let context, let log = context.pointee.log {
            TapContext.emitBatch(of: context, from: log, completingPost: true)
        }
        if !released.isEmpty { prune(released, context: context?.pointee) }
    }

    /// Removes the registrations a post (or a register's sweep, without a context) found released, in one pass
    /// however many there are. One that another thread removed first (another post's prune, or an unregister) is
    /// reported to this post's taps as skipped, so that every matched recipient of a post is accounted for exactly
    /// once.
    @inline(never)
    func prune(_ released: [(id: RecipientId, reason: Prune.Reason)], context: TapContext?) {
        for reason in [Prune.Reason.recipientReleased, .senderReleased] {
            let ids = released.lazy.filter { $0.reason == reason }.map(\.id)
            guard !ids.isEmpty else { continue }
            for id in remove(ids, pruned: reason) { context?.skip(id, .unregistered) }
        }
    }

    /// Applies the registration's filters, then delivers now or schedules delivery on its queue.
    /// - Returns: Why the registration must be pruned, when its recipient or exact sender was found released.
    @inline(__always)
    private func offer<M: SendableMetatype>(
        _ mail: M, sender: AnyObject?, to registration: Registration, context: UnsafePointer<TapContext>?,
        clock: inout Nanoseconds, runs: UnsafeMutablePointer<ThreadRuns>
    ) -> Prune.Reason? {
        guard registration.isActive.load(ordering: .acquiring) else {
            context?.pointee.skip(registration, .unregistered)
            return nil
        }
        if registration.hasExactSender {
            guard let exactSender = registration.exactSender else { return .senderReleased }
            guard exactSender === sender else { return PostOffice.mismatch(registration, context: context) }
        } else if registration.senderParameter != .absent, !registration.accepts(sender: sender) {
            return PostOffice.mismatch(registration, context: context)
        }
        guard let queue = registration.queue else {
            return PostOffice.run(
                mail, sender: sender, registration: registration, context: context, clock: &clock, runs: runs)
        }
        schedule(mail, sender: sender, registration: registration, context: context?.pointee, on: queue)
        // Scheduling takes time too: the next synchronous handler starts after it, not when the last one finished.
        if context?.pointee.isTimed == true { clock = MonotonicClock.now() }
        return nil
    }

    /// A registration whose sender filter refused the post: pruned if its recipient object was released, skipped
    /// otherwise. Every post of a mail type so prunes its released recipients, whatever senders they filter on; a
    /// matching one finds its object released when it is about to run. Out of line: only a refused registration
    /// pays for the weak load.
    @inline(never)
    private static func mismatch(_ registration: Registration, context: UnsafePointer<TapContext>?) -> Prune.Reason? {
        if registration.hasObject, registration.object == nil { return .recipientReleased }
        context?.pointee.skip(registration, .senderMismatch)
        return nil
    }

    /// Offers replayed mail to one registration through the same filters, handshake and queue as a post.
    func offerReplay<M: SendableMetatype>(
        _ mail: M, sender: AnyObject?, to registration: Registration, context: TapContext?, clock: inout Nanoseconds
    ) -> Prune.Reason? {
        TapContext.withAddress(of: context) {
            offer(mail, sender: sender, to: registration, context: $0, clock: &clock, runs: ThreadRuns.current)
        }
    }

    /// Schedules a delivery on the registration's queue. Kept out of line so that synchronous posts do not pay for
    /// the generic metadata the queued closure needs.
    @inline(never)
    private func schedule<M: SendableMetatype>(
        _ mail: M, sender: AnyObject?, registration: Registration, context: TapContext?, on queue: DispatchQueue
    ) {
        let parcel = Parcel(mail: mail, sender: sender)
        // The context does not own its taps: the queued delivery keeps them alive. Its handler runs after this post
        // returned, so it is reported to every tap as an event, not in the post's batch.
        let context = context?.queued
        queue.async { [weak self, taps = context?.taps] in
            defer { withExtendedLifetime(taps) {} }
            // If the post office is gone, the registration was never removed: the posted mail is still delivered.
            var clock = context?.isTimed == true ? MonotonicClock.now() : 0
            let released = TapContext.withAddress(of: context) {
                PostOffice.run(
                    parcel.mail, sender: parcel.sender, registration: registration, context: $0, clock: &clock,
                    runs: ThreadRuns.current)
            }
            guard let released else { return }
            // Pruned by this delivery, or skipped when another thread removed the registration first.
            let missing = self?.remove(CollectionOfOne(registration.id), pruned: released) ?? [registration.id]
            for id in missing { context?.skip(id, .unregistered) }
        }
    }

    /// Runs one handler inside the entry handshake, timed when tapped: it starts at `clock` and leaves there the
    /// time it finished.
    ///
    /// The run is entered in this thread's ``ThreadRuns`` before the registration is checked, and left when the
    /// handler returned: an `unregister` that returns after the check has either made this check fail or waited for
    /// the handler. Nothing but the check, the recipient's weak load and the handler runs inside; taps hear of the
    /// run after it was left.
    /// - Returns: `.recipientReleased` when the recipient object was found released instead.
    @inline(__always)
    private static func run<M: SendableMetatype>(
        _ mail: M, sender: AnyObject?, registration: Registration, context: UnsafePointer<TapContext>?,
        clock: inout Nanoseconds, runs: UnsafeMutablePointer<ThreadRuns>
    ) -> Prune.Reason? {
        let depth = runs.pointee.enter(registration)
        // A once registration claims its one delivery here, inside the handshake, so that exactly one thread calls it.
        guard registration.isOnce ? registration.claim() : registration.isActive.load(ordering: .sequentiallyConsistent)
        else {
            runs.pointee.leave(to: depth)
            context?.pointee.skip(registration, .unregistered)
            return nil
        }
        var recipient: AnyObject?
        if registration.hasObject {
            guard let object = registration.object else {
                runs.pointee.leave(to: depth)
                return .recipientReleased
            }
            recipient = object
        }
        guard let context else {
            registration.deliver(mail, sender: sender, recipient: recipient)
            runs.pointee.leave(to: depth)
            return nil
        }
        let startedAt = clock
        let isTimed = context.pointee.isTimed
        let nestedBefore = isTimed ? runs.pointee.nestedPosts.enterTimedRun() : 0
        registration.deliver(mail, sender: sender, recipient: recipient)
        let nestedTime = isTimed ? runs.pointee.nestedPosts.leaveTimedRun(enteredAt: nestedBefore) : 0
        runs.pointee.leave(to: depth)
        let finishedAt = isTimed ? MonotonicClock.now() : 0
        clock = finishedAt
        if let log = context.pointee.log {
            TapContext.log(
                HandlerRun(
                    recipient: registration.id, startedAt: startedAt, finishedAt: finishedAt, nestedTime: nestedTime),
                in: log, of: context)
            guard context.pointee.hasUnbatchedTaps else { return nil }
        }
        context.pointee.reportDelivery(
            by: registration, startedAt: startedAt, finishedAt: finishedAt, nestedTime: nestedTime)
        return nil
    }
}

/// Posted mail and its sender on their way to a recipient's queue. The caller hands the value over to that queue,
/// as `NotificationCenter` does; mail need not be `Sendable`.
private struct Parcel<M>: @unchecked Sendable {
    let mail: M
    let sender: AnyObject?
}
