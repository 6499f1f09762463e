import Dispatch

// The doors for `VerifiedMail`: the handler shapes of `Mail`'s, with the sender type taken from the mail type's
// `RequiredSender` instead of being free, and an exact `sender:` that must be a `RequiredSender`. Each is a thin door
// into `add`, the one registration path, exactly as `Mail`'s are.

extension PostOffice {
    // MARK: - Object and method (held weakly)

    /// Registers an object's method that takes verified mail and its sender.
    ///
    /// ```swift
    /// func receive(_ mail: DownloadFinished, from downloader: Downloader) { ... }
    /// PostOffice.default.register(self, Inbox.receive)
    /// ```
    ///
    /// Verified mail is always posted by a `RequiredSender`, so every mail of the type reaches the method.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly. When it is released the registration is pruned.
    ///   - method: An instance method taking the mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: VerifiedMail & Sendable>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ recipient: T,
        _ method: @escaping (T) -> (M, M.RequiredSender) -> Void, file: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId where M.RequiredSender: Sendable {
        add(
            M.self, M.RequiredSender.self, senderParameter: .required, queue: queue, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, object in
            method(unsafeDowncast(object!, to: T.self))(mail, sender!)
        }
    }

    /// Registers an object's method that takes verified mail and an optional sender.
    ///
    /// Deprecated, as in the original PonyExpress: verified mail is never posted without its sender, so the
    /// optional only makes the method unwrap what is always there. Kept so that code written for the original
    /// compiles, with a warning; take `M.RequiredSender` instead.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly.
    ///   - method: An instance method taking the mail and its sender, as an optional that is never `nil`.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @available(*, deprecated, message: "verified mail always has its sender: take M.RequiredSender, not an optional")
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: VerifiedMail & Sendable>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ recipient: T,
        _ method: @escaping (T) -> (M, M.RequiredSender?) -> Void, file: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId where M.RequiredSender: Sendable {
        add(
            M.self, M.RequiredSender.self, senderParameter: .optional, queue: queue, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, object in
            method(unsafeDowncast(object!, to: T.self))(mail, sender)
        }
    }

    /// Registers an object's method that takes verified mail alone.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
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
    public func register<T: AnyObject & Sendable, M: VerifiedMail & Sendable>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ recipient: T,
        _ method: @escaping (T) -> (M) -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: queue, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, _, object in
            method(unsafeDowncast(object!, to: T.self))(mail)
        }
    }

    /// Registers an object's method that takes no parameters, called for every verified mail of `mailType`.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - mailType: The verified mail type to receive.
    ///   - recipient: The object, held weakly.
    ///   - method: An instance method with no parameters.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: VerifiedMail>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ mailType: M.Type, _ recipient: T,
        _ method: @escaping (T) -> () -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: queue, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { _, _, object in
            method(unsafeDowncast(object!, to: T.self))()
        }
    }

    // MARK: - Blocks (held strongly)

    /// Registers a block that takes verified mail and its sender, held strongly until unregistered.
    ///
    /// ```swift
    /// PostOffice.default.register { (mail: DownloadFinished, sender: Downloader) in ... }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: VerifiedMail & Sendable>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ block: @escaping @Sendable (M, M.RequiredSender) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId where M.RequiredSender: Sendable {
        add(
            M.self, M.RequiredSender.self, senderParameter: .required, queue: queue, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, _ in block(mail, sender!) }
    }

    /// Registers a block that takes verified mail and an optional sender.
    ///
    /// Deprecated, as in the original PonyExpress: verified mail is never posted without its sender, so the
    /// optional is never `nil`. Kept so that code written for the original compiles, with a warning; take
    /// `M.RequiredSender` instead.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail and its sender, as an optional that is never `nil`.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @available(*, deprecated, message: "verified mail always has its sender: take M.RequiredSender, not an optional")
    @discardableResult
    @inlinable
    public func register<M: VerifiedMail & Sendable>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ block: @escaping @Sendable (M, M.RequiredSender?) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId where M.RequiredSender: Sendable {
        add(
            M.self, M.RequiredSender.self, senderParameter: .optional, queue: queue, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, _ in block(mail, sender) }
    }

    /// Registers a block that takes verified mail alone, held strongly until unregistered.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: VerifiedMail & Sendable>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ block: @escaping @Sendable (M) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: queue, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, _, _ in block(mail) }
    }

    /// Registers a block with no parameters, called for every verified mail of `mailType`.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly; it must be a `RequiredSender`.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - mailType: The verified mail type to receive.
    ///   - block: Called once for each mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: VerifiedMail>(
        queue: DispatchQueue? = nil, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        _ mailType: M.Type,
        _ block: @escaping @Sendable () -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: queue, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { _, _, _ in block() }
    }
}
