import Dispatch

// The doors for mail that is not `Sendable`. A handler that takes mail (or a sender) runs on another thread only when
// it has a queue, so the overloads with a `queue:` ask for `Sendable` mail and senders, and these, without one,
// deliver synchronously on the posting thread and ask for nothing more than a handler that may run on any thread.
// For `Sendable` mail both kinds match a call without `queue:`, and the compiler picks these: the one without a
// defaulted argument. Each is a thin door into `add`, as the others are.

extension PostOffice {
    // MARK: - Object and method (held weakly)

    /// Registers an object's method, delivered synchronously on the posting thread; the mail need not be
    /// `Sendable`.
    ///
    /// The object must be `Sendable`: any thread may post, and the method runs on the posting thread. An object
    /// that lives on the main actor is `Sendable`; its `@MainActor` methods are delivered on the main queue.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly. When it is released the registration is pruned.
    ///   - method: An instance method of the recipient's type taking the mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: Mail>(
        sender: AnyObject? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> (M) -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: nil, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, _, object in
            method(unsafeDowncast(object!, to: T.self))(mail)
        }
    }

    /// Registers an object's method taking the mail and a sender of type `S`, delivered synchronously on the
    /// posting thread; neither needs to be `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: An instance method taking the mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: Mail, S: AnyObject>(
        sender: S? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> (M, S) -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, S.self, senderParameter: .required, queue: nil, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, object in
            method(unsafeDowncast(object!, to: T.self))(mail, sender!)
        }
    }

    /// Registers an object's method taking the mail and an optional sender of type `S`, delivered synchronously on
    /// the posting thread; neither needs to be `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: An instance method taking the mail and its optional sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: Mail, S: AnyObject>(
        sender: S? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> (M, S?) -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, S.self, senderParameter: .optional, queue: nil, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, object in
            method(unsafeDowncast(object!, to: T.self))(mail, sender)
        }
    }

    /// Registers a ``MailRecipient``, delivered synchronously on the posting thread; its mail need not be
    /// `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<R: MailRecipient & Sendable>(
        sender: AnyObject? = nil, options: RegistrationOptions = [], _ recipient: R,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        register(
            sender: sender, options: options, recipient, R.receive(mail:), file: file, filePath: filePath, line: line)
    }

    /// Registers an object's method taking verified mail and its sender, delivered synchronously on the posting
    /// thread; neither needs to be `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: An instance method taking the mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: VerifiedMail>(
        sender: M.RequiredSender? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> (M, M.RequiredSender) -> Void, file: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, M.RequiredSender.self, senderParameter: .required, queue: nil, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, object in
            method(unsafeDowncast(object!, to: T.self))(mail, sender!)
        }
    }

    /// Registers an object's method taking verified mail alone, delivered synchronously on the posting thread; the
    /// mail need not be `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: An instance method taking the mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: VerifiedMail>(
        sender: M.RequiredSender? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> (M) -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: nil, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, _, object in
            method(unsafeDowncast(object!, to: T.self))(mail)
        }
    }

    // MARK: - Blocks (held strongly)

    /// Registers a block, held strongly until unregistered and delivered synchronously on the posting thread; the
    /// mail need not be `Sendable`.
    ///
    /// The block is `@Sendable`: any thread may post. Under Swift 6 a block that touches main-actor state does not
    /// compile here; mark it `@MainActor` and it is delivered on the main queue.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: Mail>(
        sender: AnyObject? = nil, options: RegistrationOptions = [], _ block: @escaping @Sendable (M) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: nil, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, _, _ in block(mail) }
    }

    /// Registers a block taking the mail and a sender of type `S`, delivered synchronously on the posting thread;
    /// neither needs to be `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: Mail, S: AnyObject>(
        sender: S? = nil, options: RegistrationOptions = [], _ block: @escaping @Sendable (M, S) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, S.self, senderParameter: .required, queue: nil, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, _ in block(mail, sender!) }
    }

    /// Registers a block taking the mail and an optional sender of type `S`, delivered synchronously on the posting
    /// thread; neither needs to be `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail and its optional sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: Mail, S: AnyObject>(
        sender: S? = nil, options: RegistrationOptions = [], _ block: @escaping @Sendable (M, S?) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, S.self, senderParameter: .optional, queue: nil, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, _ in block(mail, sender) }
    }

    /// Registers a block taking verified mail and its sender, delivered synchronously on the posting thread;
    /// neither needs to be `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: VerifiedMail>(
        sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ block: @escaping @Sendable (M, M.RequiredSender) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, M.RequiredSender.self, senderParameter: .required, queue: nil, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, _ in block(mail, sender!) }
    }

    /// Registers a block taking verified mail alone, delivered synchronously on the posting thread; the mail need
    /// not be `Sendable`.
    ///
    /// - Parameters:
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: VerifiedMail>(
        sender: M.RequiredSender? = nil, options: RegistrationOptions = [], _ block: @escaping @Sendable (M) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: nil, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, _, _ in block(mail) }
    }
}
