import Dispatch

// Every public `register` overload below is a thin door into `add`, the one registration path: it only turns the caller's handler shape
// into one `TypedRegistration` and says which senders it accepts.

extension PostOffice {
    // MARK: - Object and method (held weakly)

    /// Registers an object's method; the object is held weakly and needs no unregistering.
    ///
    /// ```swift
    /// PostOffice.default.register(self, ExampleRecipient.receive)
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously. `nil` delivers synchronously on the posting thread.
    ///     To receive on the main thread, pass `.main`.
    ///   - sender: Deliver only mail posted by exactly this instance, which is held weakly; once it is released the
    ///     registration is pruned.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - recipient: The object, held weakly. When it is released the registration is pruned.
    ///   - method: An instance method of the recipient's type taking the mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: Mail & Sendable>(
        queue: DispatchQueue? = nil, sender: AnyObject? = nil, options: RegistrationOptions = [], _ recipient: T,
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

    /// Registers an object's method that takes the mail and a sender of type `S`; only mail posted by an `S`
    /// (or a subclass) is delivered.
    ///
    /// ```swift
    /// func receive(notification: ExampleNotification, sender: ExampleSender) { ... }
    /// PostOffice.default.register(self, ExampleRecipient.receive)
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
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
    public func register<T: AnyObject & Sendable, M: Mail & Sendable, S: AnyObject & Sendable>(
        queue: DispatchQueue? = nil, sender: S? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> (M, S) -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, S.self, senderParameter: .required, queue: queue, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, object in
            method(unsafeDowncast(object!, to: T.self))(mail, sender!)
        }
    }

    /// Registers an object's method that takes the mail and an optional sender of type `S`; mail posted without a
    /// sender or by an `S` (or a subclass) is delivered.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
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
    public func register<T: AnyObject & Sendable, M: Mail & Sendable, S: AnyObject & Sendable>(
        queue: DispatchQueue? = nil, sender: S? = nil, options: RegistrationOptions = [], _ recipient: T,
        _ method: @escaping (T) -> (M, S?) -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, S.self, senderParameter: .optional, queue: queue, exactSender: sender,
            recipient: recipient, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, object in
            method(unsafeDowncast(object!, to: T.self))(mail, sender)
        }
    }

    /// Registers an object's method that takes no parameters, called for every mail of `mailType`.
    ///
    /// ```swift
    /// PostOffice.default.register(ExampleNotification.self, self, ExampleRecipient.refresh)
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - mailType: The mail type to receive.
    ///   - recipient: The object, held weakly.
    ///   - method: An instance method with no parameters.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<T: AnyObject & Sendable, M: Mail>(
        queue: DispatchQueue? = nil, sender: AnyObject? = nil, options: RegistrationOptions = [], _ mailType: M.Type,
        _ recipient: T,
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

    /// Registers a ``MailRecipient``; the object is held weakly and its `receive(mail:)` is called.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
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
        queue: DispatchQueue? = nil, sender: AnyObject? = nil, options: RegistrationOptions = [], _ recipient: R,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId where R.Contents: Sendable {
        register(
            queue: queue, sender: sender, options: options, recipient, R.receive(mail:), file: file, filePath: filePath,
            line: line)
    }

    // MARK: - Blocks (held strongly)

    /// Registers a block, held strongly until unregistered.
    ///
    /// ```swift
    /// let id = PostOffice.default.register { [weak self] (notification: ExampleNotification) in
    ///     self?.update(with: notification)
    /// }
    /// ```
    ///
    /// Capture objects weakly: the post office keeps the block, and everything it captures, until
    /// ``unregister(_:)-(RecipientId)``.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: Mail & Sendable>(
        queue: DispatchQueue? = nil, sender: AnyObject? = nil, options: RegistrationOptions = [],
        _ block: @escaping @Sendable (M) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: queue, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, _, _ in block(mail) }
    }

    /// Registers a block that takes the mail and a sender of type `S`; only mail posted by an `S` is delivered.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail and its sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: Mail & Sendable, S: AnyObject & Sendable>(
        queue: DispatchQueue? = nil, sender: S? = nil, options: RegistrationOptions = [],
        _ block: @escaping @Sendable (M, S) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, S.self, senderParameter: .required, queue: queue, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, _ in block(mail, sender!) }
    }

    /// Registers a block that takes the mail and an optional sender of type `S`; mail posted without a sender or
    /// by an `S` is delivered.
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - block: Called with each mail and its optional sender.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: Mail & Sendable, S: AnyObject & Sendable>(
        queue: DispatchQueue? = nil, sender: S? = nil, options: RegistrationOptions = [],
        _ block: @escaping @Sendable (M, S?) -> Void,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, S.self, senderParameter: .optional, queue: queue, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { mail, sender, _ in block(mail, sender) }
    }

    /// Registers a block with no parameters, called for every mail of `mailType`.
    ///
    /// ```swift
    /// PostOffice.default.register(ExampleNotification.self) { print("something happened") }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where to deliver, asynchronously; `nil` for synchronously on the posting thread.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; none for a plain registration.
    ///   - mailType: The mail type to receive.
    ///   - block: Called once for each mail.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: An id for ``unregister(_:)-(RecipientId)``.
    @discardableResult
    @inlinable
    public func register<M: Mail>(
        queue: DispatchQueue? = nil, sender: AnyObject? = nil, options: RegistrationOptions = [], _ mailType: M.Type,
        _ block: @escaping @Sendable () -> Void, file: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> RecipientId {
        add(
            M.self, AnyObject.self, senderParameter: .absent, queue: queue, exactSender: sender,
            recipient: nil, options: options, file: file, filePath: filePath, line: line
        ) { _, _, _ in block() }
    }

    // MARK: - Unregistering

    /// Stops delivery to one registration. Unknown or repeated ids are ignored.
    ///
    /// Once this returns, no handler of the registration starts, queued deliveries included, and none is running on
    /// another thread: a handler that another thread had already started runs to its end, and this waits for it.
    /// So once it returns you may tear down what the handler uses.
    ///
    /// Two exceptions keep handlers from waiting for each other forever: called inside a handler of this
    /// registration, it does not wait for that run (a handler may unregister itself); called inside any handler, it
    /// does not wait for a thread that is inside a handler and waiting in `unregister` too. As with
    /// `DispatchQueue.sync`, do not call it while holding a lock that a running handler of the registration may
    /// wait for.
    public func unregister(_ id: RecipientId) {
        remove(id)
    }

    /// Stops delivery to every method registration of `recipient`. Blocks are untouched: unregister them by id.
    ///
    /// Once this returns, no handler of those registrations starts or runs on another thread, with the same
    /// exceptions as ``unregister(_:)-(RecipientId)``.
    public func unregister(_ recipient: AnyObject) {
        // By identity, not by the weak reference: in the recipient's `deinit`, where apps unregister, its weak
        // references already read `nil`. Another registration at the same address is of a released object, whose
        // handler cannot run again.
        let object = ObjectIdentifier(recipient)
        let ids = state.withLock { state in
            state.registrations.all.filter { $0.objectIdentifier == object }.map(\.id).sorted()
        }
        remove(ids, object: object)
    }

    // MARK: - The door

    /// The one registration path every overload goes through. It is inlinable, like the overloads, so that the
    /// registration is made at the caller's types: the compiler calls an object's method directly, without building a
    /// closure for the object on every delivery, and finds the registration's generic class without a runtime lookup.
    ///
    /// It asks nothing of `Contents`, not even `SendableMetatype`: the public overloads have said what the mail must
    /// be. A Swift 5 mode app lets non-`Sendable` mail through a `Mail & Sendable` overload without a word, and had
    /// this asked for `SendableMetatype`, the optimizer would have derived it from that missing `Sendable`
    /// conformance when inlining this into the app, and crashed the compiler (the Isolation article's "Swift 5
    /// mode"). `TypedRegistration` and `Bucket` ask nothing either, for the same reason.
    @inlinable
    func add<Contents, Sender: AnyObject>(
        _: Contents.Type, _: Sender.Type, senderParameter: SenderParameter, queue: DispatchQueue?,
        exactSender: AnyObject?, recipient: AnyObject?, options: RegistrationOptions, file: StaticString,
        filePath: StaticString, line: UInt,
        body: @escaping (_ mail: Contents, _ sender: Sender?, _ recipient: AnyObject?) -> Void
    ) -> RecipientId {
        // A plain registration, the usual one, is made by an initializer that knows nothing of options, and added
        // by a path that does not look at them.
        options.isEmpty
            ? add(
                TypedRegistration<Contents, Sender>(
                    senderParameter: senderParameter, queue: queue, exactSender: exactSender, recipient: recipient,
                    file: file, filePath: filePath, line: line, body: body))
            : addWithOptions(
                TypedRegistration<Contents, Sender>(
                    senderParameter: senderParameter, queue: queue, exactSender: exactSender, recipient: recipient,
                    options: options, file: file, filePath: filePath, line: line, body: body))
    }

    /// Gives a new registration without options its id and adds it to its bucket, out of line.
    @usableFromInline
    func add(_ registration: consuming Registration) -> RecipientId {
        add(Unmanaged.passRetained(consume registration), hasOptions: false)
    }

    /// Gives a new registration with options its id and adds it to its bucket, out of line.
    @usableFromInline
    func addWithOptions(_ registration: consuming Registration) -> RecipientId {
        add(Unmanaged.passRetained(consume registration), hasOptions: true)
    }

    /// Adds a registration, handing the caller's reference to it (`owned`) to its bucket: the one reference the post
    /// office keeps, so that registering makes no reference-counting read-modify-write of its own.
    @inline(__always)
    private func add(_ owned: Unmanaged<Registration>, hasOptions: Bool) -> RecipientId {
        // The extras leave the lock retained but uncounted, so that a plain registration, which has none, does
        // not release an empty reference on the way out.
        var released: [(id: RecipientId, reason: Prune.Reason)]?
        // The scope it is made in, if any: one task-local read for a plain registration. What the scope keeps of
        // the registration is read now, while no other thread can have removed and freed it.
        let scoped = owned._withUnsafeGuaranteedRef { registration -> (scope: MailScope, entry: MailScope.Entry)? in
            guard let scope = MailScope.innermost, scope.isOpen,
                !(hasOptions && registration.options.contains(.outlivesScope))
            else { return nil }
            registration.scope = scope
            return (scope, MailScope.Entry(registration))
        }
        let (id, taps, extras, kept) = state.withLock {
            state -> (RecipientId, TapList?, Unmanaged<RegistrationExtras>?, Registration?) in
            owned._withUnsafeGuaranteedRef { registration in
                // Ids are given under the lock so that id order is registration order within this post office.
                let id = state.ids.take()
                registration.rawId.store(id.rawValue, ordering: .relaxed)
                let key = ObjectIdentifier(registration.mailType)
                return state.bucket(for: key) { registration.makeBucket() }._withUnsafeGuaranteedRef { bucket in
                    // Limits, once and replay only cost a registration that uses them, out of line.
                    let extras =
                        !hasOptions && state.limits == nil
                        ? nil
                        : state.extras(for: registration, in: bucket, key: key, office: self)
                            .map(Unmanaged.passRetained)
                    state.registrations.insert(owned)
                    state.invalidateRoutes(through: bucket)
                    // Once the lock is released another thread may unregister the registration and free it: taps,
                    // which read it after, hold it.
                    let taps = state.taps
                    let kept = taps == nil ? nil : registration
                    bucket.registrations.append(owned.takeRetainedValue())
                    // A growing bucket is swept for released recipients a few at a time (see `Bucket.sweep`).
                    if bucket.registrations.count >= bucket.sweepAt { released = bucket.sweep() }
                    return (id, taps, extras, kept)
                }
            }
        }
        if var scoped {
            scoped.entry.id = id
            scoped.scope.adopt(scoped.entry, office: self)
        }
        // The info, and the text of its site, are built only for taps.
        if let taps, let kept { taps.emit(.registered(kept.info)) }
        if let extras { finish(extras.takeRetainedValue(), taps: taps) }
        if let released, !released.isEmpty { prune(released, context: nil) }
        return id
    }
}
