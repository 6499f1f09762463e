extension PostOffice {
    /// Keeps the last mail posted of `mailType` (or a subclass), so that registrations with
    /// ``RegistrationOptions/replay`` receive it at once.
    ///
    /// ```swift
    /// office.keepLastMail(ReachabilityChanged.self)
    /// office.post(ReachabilityChanged(isReachable: true))
    /// office.register(options: .replay) { (change: ReachabilityChanged) in print(change.isReachable) }  // true
    /// ```
    ///
    /// The memory it costs: per mail type that keeps mail, one small object holding the last value (boxed, if it is
    /// larger than three words, as `Any` is) and a weak reference to its sender, which gives the sender a weak
    /// reference side table. The kept value lives until the next post of the type replaces it, or until
    /// ``forgetLastMail(_:)``. Types that do not keep mail cost nothing: their posts pay one check of a flag on their
    /// route. A post of a type that keeps mail takes the post office's lock to store it, which other posts do not. Calling
    /// this again for the same type has no further effect.
    ///
    /// - Parameter mailType: The mail type to keep the last mail of; the kept mail is handed to whichever thread
    ///   registers or asks for it next, so it must be `Sendable`.
    public func keepLastMail<M: _PostableMail & Sendable>(_ mailType: M.Type) {
        state.withLock { state in
            let key = ObjectIdentifier(mailType)
            guard state.keepers[key] == nil else { return }
            state.keepers[key] = TypedMailKeeper<M>()
            // Rare: every route is rebuilt, with the keepers of its posted type.
            state.dropAllRoutes()
        }
    }

    /// Stops keeping the last mail of `mailType` and releases the kept mail.
    ///
    /// - Parameter mailType: A mail type passed to ``keepLastMail(_:)``.
    public func forgetLastMail<M: _PostableMail>(_ mailType: M.Type) {
        state.withLock { state in
            guard state.keepers.removeValue(forKey: ObjectIdentifier(mailType)) != nil else { return }
            state.dropAllRoutes()
        }
    }

    /// The last mail posted of `mailType` (or a subclass), if the type keeps its last mail and one was posted.
    ///
    /// - Parameter mailType: A mail type passed to ``keepLastMail(_:)``.
    /// - Returns: The kept mail, or `nil`.
    public func lastMail<M: _PostableMail & Sendable>(_ mailType: M.Type) -> M? {
        state.withLock { state in state.keepers[ObjectIdentifier(mailType)]?.lastMail(as: M.self) }
    }

    /// Delivers kept mail to a new replay registration, through the one delivery path: on its queue, through its
    /// sender filter and the entry handshake, reported to taps as a ``Delivery`` marked ``Delivery/isReplay``.
    ///
    /// Mail the registration's sender filter would not take is not replayed, and leaves no trace in the taps; nor is
    /// mail whose sender was released, for a registration that looks at the sender.
    func replay<M: SendableMetatype>(
        _ mail: M, sender: AnyObject?, senderReleased: Bool, to registration: Registration, taps: TapList?
    ) {
        if registration.hasExactSender {
            guard let exactSender = registration.exactSender, exactSender === sender else { return }
        } else if registration.senderParameter != .absent {
            guard !senderReleased, registration.accepts(sender: sender) else { return }
        }
        var context: TapContext?
        if let taps {
            let time = taps.isTimed ? MonotonicClock.now() : 0
            let posting = Posting(
                postId: 0, mailType: TypeIdentity(type(of: mail)),
                senderType: sender.map { TypeIdentity(type(of: $0)) },
                matched: 1, time: time)
            context = TapContext(taps: taps, posting: posting, isTimed: taps.isTimed)
            context?.isReplay = true
        }
        var clock = context?.posting.time ?? 0
        let released = withExtendedLifetime(taps) {
            offerReplay(mail, sender: sender, to: registration, context: context, clock: &clock)
        }
        guard let released else { return }
        for id in remove(CollectionOfOne(registration.id), pruned: released) { context?.skip(id, .unregistered) }
    }
}
