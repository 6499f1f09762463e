extension PostOffice {
    /// The live recipients registered for exactly `mailType`, in registration (and delivery) order.
    ///
    /// Registrations whose object or exact sender has been released are left out; ``prune()`` removes them.
    public func recipients<M: _PostableMail>(of mailType: M.Type) -> [RecipientInfo] {
        state.withLock { state in
            state.buckets[ObjectIdentifier(mailType)]?.registrations.filter(\.isLive).map(\.info) ?? []
        }
    }

    /// Every live recipient of this post office, in registration order.
    public func recipients() -> [RecipientInfo] {
        state.withLock { state in state.registrations.all.filter(\.isLive).map(\.info) }
            .sorted { $0.id < $1.id }
    }

    /// How many live recipients are registered for exactly `mailType`.
    public func recipientCount<M: _PostableMail>(of mailType: M.Type) -> Int {
        state.withLock { state in
            state.buckets[ObjectIdentifier(mailType)]?.registrations.count(where: \.isLive) ?? 0
        }
    }

    /// Whether the registration `id` is registered with its object and exact sender, where it has them, alive.
    ///
    /// One lookup under the lock: the monitor asks this of the registrations a finding names, where listing every
    /// recipient with ``recipients()`` would hold the lock, and every `register` behind it, for all of them.
    package func isLive(_ id: RecipientId) -> Bool {
        state.withLock { state in state.registrations[id]?.isLive ?? false }
    }

    /// Whether each of `ids` is live, as ``isLive(_:)`` says, asked 1,024 at a time under the lock: what counting the
    /// living recipients of every mail type takes, without holding `register` behind the lock for all of them.
    package func areLive(_ ids: [RecipientId]) -> [Bool] {
        var answers: [Bool] = []
        answers.reserveCapacity(ids.count)
        for start in stride(from: 0, to: ids.count, by: 1_024) {
            let chunk = ids[start..<Swift.min(ids.count, start + 1_024)]
            state.withLock { state in
                for id in chunk { answers.append(state.registrations[id]?.isLive ?? false) }
            }
        }
        return answers
    }

    /// How many live recipients are registered, over all mail types.
    public var recipientCount: Int {
        state.withLock { state in state.registrations.all.count(where: \.isLive) }
    }

    /// Removes every registration whose object or exact sender has been released, reporting each to the taps.
    ///
    /// Posting prunes the registrations it meets on its own, and registering sweeps a growing mail type a few
    /// registrations at a time, posted or not; call this to sweep every mail type at once.
    /// - Returns: How many registrations were pruned.
    @discardableResult
    public func prune() -> Int {
        let (recipientsGone, sendersGone) = state.withLock { state in
            let dead = state.registrations.all.compactMap { registration in
                registration.releaseReason.map { (id: registration.id, reason: $0) }
            }
            return (
                dead.filter { $0.reason == .recipientReleased }.map(\.id).sorted(),
                dead.filter { $0.reason == .senderReleased }.map(\.id).sorted()
            )
        }
        remove(recipientsGone, pruned: .recipientReleased)
        remove(sendersGone, pruned: .senderReleased)
        return recipientsGone.count + sendersGone.count
    }

    /// Checks the next `count` registrations for a released object or exact sender, going on from where the last
    /// call stopped, round every mail type in turn, and removes those it finds, reporting each to the taps.
    ///
    /// For a watcher that wants its counts of live recipients to stay true without holding the lock, and every
    /// `post` and `register` behind it, for all of them at once as ``prune()`` does: called again and again, it
    /// passes every registration once in `registrations / count` calls. The monitor calls it as it takes a snapshot.
    /// - Parameter count: How many registrations to check, at most; the lock is held while they are checked.
    /// - Returns: How many registrations were pruned.
    @discardableResult
    public func prune(checking count: Int) -> Int {
        pruneStep(checking: count).pruned
    }

    /// ``prune(checking:)``, telling also how many registrations it checked: fewer than `count` when it went round
    /// every registration, so that a caller checking many in steps knows when to stop.
    package func pruneStep(checking count: Int) -> (checked: Int, pruned: Int) {
        guard count > 0 else { return (0, 0) }
        let (checked, released) = state.withLock { state in
            var released: [(id: RecipientId, reason: Prune.Reason)] = []
            var left = count
            // Each turn checks registrations or moves on to the next bucket, which it does at most once round.
            var bucketsPassed = 0
            while left > 0, bucketsPassed < state.bucketsInOrder.count {
                if state.pruneCursor.bucket >= state.bucketsInOrder.count { state.pruneCursor = (0, 0) }
                let step = state.bucketsInOrder[state.pruneCursor.bucket].findReleased(
                    from: state.pruneCursor.position, checking: left, into: &released)
                left -= step.checked
                if step.reachedEnd {
                    state.pruneCursor = (state.pruneCursor.bucket + 1, 0)
                    bucketsPassed += 1
                } else {
                    state.pruneCursor.position = step.next
                }
            }
            return (count - left, released)
        }
        if !released.isEmpty { prune(released, context: nil) }
        return (checked, released.count)
    }
}

extension Registration {
    /// Whether the weakly held object and exact sender, where there are any, are still alive.
    var isLive: Bool { releaseReason == nil }

    /// Why the registration must be pruned: its recipient object released, or else its exact sender; `nil` while
    /// both, where it has them, are alive.
    var releaseReason: Prune.Reason? {
        if hasObject, object == nil { return .recipientReleased }
        if hasExactSender, exactSender == nil { return .senderReleased }
        return nil
    }
}
