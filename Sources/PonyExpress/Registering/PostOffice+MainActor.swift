import Dispatch

// A `@MainActor` method passed as `Type.method` would convert to a plain function type and then run on whatever
// thread posts. These overloads catch such methods by their type and always deliver them on the main queue, with
// the isolation checked. Passing another queue stops at registration, where the mistake is made.

extension PostOffice {
    /// Registers a `@MainActor` method; it is always delivered asynchronously on the main queue.
    ///
    /// ```swift
    /// @MainActor final class ViewModel {
    ///     func receive(_ mail: CartUpdated) { ... }
    /// }
    /// PostOffice.default.register(viewModel, ViewModel.receive)   // runs on the main queue
    /// ```
    ///
    /// The main queue must be serviced (an app's run loop, or `dispatchMain()` in a command-line tool).
    ///
    /// - Parameters:
    ///   - queue: `nil` or `.main`; any other queue stops the program here, since the method must run on main.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: A main-actor-isolated instance method taking the mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<T: AnyObject & Sendable, M: Mail & Sendable>(
        queue: DispatchQueue? = nil, sender: AnyObject? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> @MainActor (M) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        requireMain(queue, file: file, line: line)
        return register(
            queue: .main, sender: sender, options: options, recipient, { object in mainActor(method(object)) },
            file: file, filePath: filePath, line: line)
    }

    /// Registers a `@MainActor` method taking the mail and its optional sender; it is always delivered
    /// asynchronously on the main queue.
    ///
    /// - Parameters:
    ///   - queue: `nil` or `.main`; any other queue stops the program here, since the method must run on main.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: A main-actor-isolated instance method taking the mail and its optional sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<T: AnyObject & Sendable, M: Mail & Sendable, S: AnyObject & Sendable>(
        queue: DispatchQueue? = nil, sender: S? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> @MainActor (M, S?) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        requireMain(queue, file: file, line: line)
        return register(
            queue: .main, sender: sender, options: options, recipient, { object in mainActor(method(object)) },
            file: file, filePath: filePath, line: line)
    }

    /// Registers a `@MainActor` method taking the mail and a sender of type `S`; it is always delivered
    /// asynchronously on the main queue.
    ///
    /// - Parameters:
    ///   - queue: `nil` or `.main`; any other queue stops the program here, since the method must run on main.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: A main-actor-isolated instance method taking the mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<T: AnyObject & Sendable, M: Mail & Sendable, S: AnyObject & Sendable>(
        queue: DispatchQueue? = nil, sender: S? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> @MainActor (M, S) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        requireMain(queue, file: file, line: line)
        return register(
            queue: .main, sender: sender, options: options, recipient, { object in mainActor(method(object)) },
            file: file, filePath: filePath, line: line)
    }
}

extension PostOffice {
    /// Registers a `@MainActor` method taking verified mail; it is always delivered asynchronously on the main queue.
    ///
    /// - Parameters:
    ///   - queue: `nil` or `.main`; any other queue stops the program here, since the method must run on main.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: A main-actor-isolated instance method taking the mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<T: AnyObject & Sendable, M: VerifiedMail & Sendable>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ recipient: T,
        _ method: @escaping (T) -> @MainActor (M) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        requireMain(queue, file: file, line: line)
        return register(
            queue: .main, sender: sender, options: options, recipient, { object in mainActor(method(object)) },
            file: file, filePath: filePath, line: line)
    }

    /// Registers a `@MainActor` method taking verified mail and its sender; it is always delivered asynchronously on
    /// the main queue.
    ///
    /// - Parameters:
    ///   - queue: `nil` or `.main`; any other queue stops the program here, since the method must run on main.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: A main-actor-isolated instance method taking the mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    public func register<T: AnyObject & Sendable, M: VerifiedMail & Sendable>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ recipient: T,
        _ method: @escaping (T) -> @MainActor (M, M.RequiredSender) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId where M.RequiredSender: Sendable {
        requireMain(queue, file: file, line: line)
        return register(
            queue: .main, sender: sender, options: options, recipient, { object in mainActor(method(object)) },
            file: file, filePath: filePath, line: line)
    }
}

private func requireMain(_ queue: DispatchQueue?, file: StaticString, line: UInt) {
    // By label: on Linux `DispatchQueue.main` makes a new wrapper object on every call, so `===` never matches.
    precondition(
        queue == nil || queue?.label == DispatchQueue.main.label,
        "a @MainActor method is always delivered on the main queue: pass no queue, or .main", file: file, line: line)
}

/// Wraps a main-actor function for delivery on the main queue, asserting the isolation when it runs.
private func mainActor<A>(_ body: @escaping @MainActor (A) -> Void) -> (A) -> Void {
    { argument in
        let parcel = UncheckedParcel(argument)
        MainActor.assumeIsolated { body(parcel.value) }
    }
}

private func mainActor<A, B>(_ body: @escaping @MainActor (A, B) -> Void) -> (A, B) -> Void {
    { first, second in
        let parcel = UncheckedParcel((first, second))
        MainActor.assumeIsolated { body(parcel.value.0, parcel.value.1) }
    }
}

/// Carries a value already on the main queue into `MainActor.assumeIsolated`.
private struct UncheckedParcel<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Wraps a main-actor block for delivery on the main queue, asserting the isolation when it runs.
func mainActorBlock<A>(_ body: @escaping @MainActor @Sendable (A) -> Void) -> @Sendable (A) -> Void {
    { argument in
        let parcel = UncheckedParcel(argument)
        MainActor.assumeIsolated { body(parcel.value) }
    }
}

func mainActorBlock<A, B>(_ body: @escaping @MainActor @Sendable (A, B) -> Void) -> @Sendable (A, B) -> Void {
    { first, second in
        let parcel = UncheckedParcel((first, second))
        MainActor.assumeIsolated { body(parcel.value.0, parcel.value.1) }
    }
}
