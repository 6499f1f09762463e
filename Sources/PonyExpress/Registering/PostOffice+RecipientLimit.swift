extension PostOffice {
    /// Sets how many recipients `mailType` may have before a registration counts as over the limit.
    ///
    /// ```swift
    /// office.setRecipientLimit(100, for: CartUpdated.self)
    /// office.onRecipientLimitExceeded { breach in
    ///     print("\(breach.count) recipients of \(breach.recipient.mailType): a leak?")
    /// }
    /// ```
    ///
    /// Going past a limit never refuses a registration. Each registration past it is marked
    /// ``RecipientInfo/isOverLimit`` for taps and the monitor, and reported to the handler set with
    /// ``onRecipientLimitExceeded(assertingInDebugBuilds:_:)``, if any. Without limits, registering checks
    /// nothing more.
    ///
    /// - Parameters:
    ///   - limit: The largest number of registrations for exactly `mailType` that is not a breach; `nil` removes
    ///     the type's own limit, leaving the default.
    ///   - mailType: The registered mail type.
    /// - Precondition: `limit` is `nil` or 0 or more. A negative limit is a programming error, like an index out of
    ///   range: it stops the program with "a recipient limit cannot be negative", in debug and release builds alike.
    ///   A limit read from outside (a file, a flag) should be checked before it gets here.
    public func setRecipientLimit<M: _PostableMail>(_ limit: Int?, for mailType: M.Type) {
        precondition((limit ?? 0) >= 0, "a recipient limit cannot be negative")
        state.withLock { state in state.changeLimits { $0.byType[ObjectIdentifier(mailType)] = limit } }
    }

    /// Sets the recipient limit of every mail type that has no limit of its own.
    ///
    /// - Parameter limit: The largest number of registrations per mail type that is not a breach; `nil` for none.
    /// - Precondition: `limit` is `nil` or 0 or more; a negative limit stops the program, as it does for
    ///   ``setRecipientLimit(_:for:)``.
    public func setDefaultRecipientLimit(_ limit: Int?) {
        precondition((limit ?? 0) >= 0, "a recipient limit cannot be negative")
        state.withLock { state in state.changeLimits { $0.defaultLimit = limit } }
    }

    /// Sets what happens when a registration goes past a recipient limit; by default nothing but the mark that taps
    /// see.
    ///
    /// The handler runs on the registering thread, inside `register`, after taps heard of the registration and
    /// with no lock held.
    ///
    /// - Parameters:
    ///   - assertingInDebugBuilds: Also stop the program with an assertion after the handler ran, in debug builds
    ///     of PonyExpress only.
    ///   - handler: Called once for each registration past a limit; `nil` for none.
    public func onRecipientLimitExceeded(
        assertingInDebugBuilds: Bool = false, _ handler: (@Sendable (RecipientLimitExceeded) -> Void)?
    ) {
        state.withLock { state in
            state.changeLimits { limits in
                limits.handler = handler
                limits.assertsInDebugBuilds = assertingInDebugBuilds
            }
        }
    }
}
