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
            let dead = state.registrations.all.filter { !$0.isLive }
            return (
                dead.filter { $0.releaseReason == .recipientReleased }.map(\.id).sorted(),
                dead.filter { $0.releaseReason == .senderReleased }.map(\.id).sorted()
            )
        }
        remove(recipientsGone, pruned: .recipientReleased)
        remove(sendersGone, pruned: .senderReleased)
        return recipientsGone.count + sendersGone.count
    }
}

extension Registration {
    /// Whether the weakly held object and exact sender, where there are any, are still alive.
    var isLive: Bool {
        (!hasObject || object != nil) && (!hasExactSender || exactSender != nil)
    }

    /// Why a registration that is not ``isLive`` is pruned: its recipient died, or else its exact sender.
    var releaseReason: Prune.Reason {
        hasObject && object == nil ? .recipientReleased : .senderReleased
    }
}
