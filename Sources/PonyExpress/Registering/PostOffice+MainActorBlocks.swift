import Dispatch

// A block is `@Sendable`, since any thread may post: under Swift 6 one that touches main-actor state does not
// compile as a plain block. Marked `@MainActor` (`{ @MainActor (mail: CartUpdated) in ... }`) it matches these
// overloads instead, and is always delivered asynchronously on the main queue with the isolation checked, as a
// `@MainActor` method is. Its mail and sender cross to the main thread, so they must be `Sendable`. They take no
// `queue:`: the main queue is the only one a main-actor block may run on.

extension PostOffice {
    /// Registers a `@MainActor` block; it is always delivered asynchronously on the main queue.
    ///
    /// ```swift
    /// @MainActor final class Screen {
    ///     var count = 0
    ///     func start() {
    ///         PostOffice.default.register { @MainActor [weak self] (tick: Tick) in self?.count += tick.n }
    ///     }
    /// }
    /// ```
    ///
    /// The main queue must be serviced (an app's run loop, or `dispatchMain()` in a command-line tool).
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: A main-actor-isolated block taking the mail, held strongly until unregistered.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<M: Mail & Sendable>(
        sender: AnyObject? = nil, options: RegistrationOptions = [],
        _ block: @escaping @MainActor @Sendable (M) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        return register(
            queue: .main, sender: sender, options: options, mainActorBlock(block), file: file, filePath: filePath,
            line: line)
    }

    /// Registers a `@MainActor` block taking the mail and a sender of type `S`; it is always delivered
    /// asynchronously on the main queue.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: A main-actor-isolated block taking the mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<M: Mail & Sendable, S: AnyObject & Sendable>(
        sender: S? = nil, options: RegistrationOptions = [],
        _ block: @escaping @MainActor @Sendable (M, S) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        return register(
            queue: .main, sender: sender, options: options, mainActorBlock(block), file: file, filePath: filePath,
            line: line)
    }

    /// Registers a `@MainActor` block taking the mail and an optional sender of type `S`; it is always delivered
    /// asynchronously on the main queue.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: A main-actor-isolated block taking the mail and its optional sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<M: Mail & Sendable, S: AnyObject & Sendable>(
        sender: S? = nil, options: RegistrationOptions = [],
        _ block: @escaping @MainActor @Sendable (M, S?) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        return register(
            queue: .main, sender: sender, options: options, mainActorBlock(block), file: file, filePath: filePath,
            line: line)
    }

    /// Registers a `@MainActor` block with no parameters, called for every mail of `mailType`; it is always
    /// delivered asynchronously on the main queue.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - mailType: The mail type to receive.
    ///   - block: A main-actor-isolated block, called once for each mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<M: Mail>(
        sender: AnyObject? = nil, options: RegistrationOptions = [], _ mailType: M.Type,
        _ block: @escaping @MainActor @Sendable () -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        return register(
            queue: .main, sender: sender, options: options, mailType, { MainActor.assumeIsolated { block() } },
            file: file, filePath: filePath, line: line)
    }

    /// Registers a `@MainActor` block taking verified mail; it is always delivered asynchronously on the main queue.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: A main-actor-isolated block taking the mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<M: VerifiedMail & Sendable>(
        sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ block: @escaping @MainActor @Sendable (M) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        return register(
            queue: .main, sender: sender, options: options, mainActorBlock(block), file: file, filePath: filePath,
            line: line)
    }

    /// Registers a `@MainActor` block taking verified mail and its sender; it is always delivered asynchronously on
    /// the main queue.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: A main-actor-isolated block taking the mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<M: VerifiedMail & Sendable>(
        sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ block: @escaping @MainActor @Sendable (M, M.RequiredSender) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId where M.RequiredSender: Sendable {
        return register(
            queue: .main, sender: sender, options: options, mainActorBlock(block), file: file, filePath: filePath,
            line: line)
    }

    /// Registers a `@MainActor` block with no parameters, called for every verified mail of `mailType`; it is always
    /// delivered asynchronously on the main queue.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - mailType: The verified mail type to receive.
    ///   - block: A main-actor-isolated block, called once for each mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<M: VerifiedMail>(
        sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ mailType: M.Type, _ block: @escaping @MainActor @Sendable () -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        return register(
            queue: .main, sender: sender, options: options, mailType, { MainActor.assumeIsolated { block() } },
            file: file, filePath: filePath, line: line)
    }
}
