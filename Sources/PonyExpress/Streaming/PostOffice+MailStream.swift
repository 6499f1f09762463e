extension PostOffice {
    /// The mail of `mailType` as an `AsyncSequence`, for `for await` loops.
    ///
    /// ```swift
    /// let task = Task { @MainActor in
    ///     for await update in office.mail(CartUpdated.self) { badge.count = update.items }
    /// }
    /// task.cancel()   // unregisters
    /// ```
    ///
    /// Registers at once: mail posted after this returns is buffered until the consumer takes it. The registration
    /// is a block that yields each mail on the posting thread; it is unregistered when the consuming task is
    /// cancelled, when the stream ends, or when the stream and its iterators are released.
    ///
    /// - Parameters:
    ///   - mailType: The mail type to receive; values cross to the consuming task, so it must be `Sendable`.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once`` ends the stream after one mail; ``RegistrationOptions/replay``
    ///     starts it with the kept mail.
    ///   - bufferingPolicy: How many values wait for a slow consumer; unbounded by default.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: The stream; its ``MailStream/id`` is the registration's id.
    public func mail<M: Mail & Sendable>(
        _ mailType: M.Type, sender: AnyObject? = nil, options: RegistrationOptions = [],
        bufferingPolicy: MailStream<M>.BufferingPolicy = .unbounded, file: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line
    ) -> MailStream<M> {
        stream(
            M.self, sender: sender, options: options, bufferingPolicy: bufferingPolicy, file: file, filePath: filePath,
            line: line)
    }

    /// The verified mail of `mailType` as an `AsyncSequence`, for `for await` loops.
    ///
    /// The stream of `Mail`'s `mail(_:sender:options:bufferingPolicy:file:filePath:line:)`, for ``VerifiedMail``: an exact
    /// `sender` must be a `RequiredSender`.
    ///
    /// - Parameters:
    ///   - mailType: The verified mail type to receive; values cross to the consuming task, so it must be
    ///     `Sendable`.
    ///   - sender: Deliver only mail posted by exactly this instance, held weakly.
    ///   - options: ``RegistrationOptions/once`` ends the stream after one mail; ``RegistrationOptions/replay``
    ///     starts it with the kept mail.
    ///   - bufferingPolicy: How many values wait for a slow consumer; unbounded by default.
    ///   - file: Where the registration is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the registration, reported to taps; leave the default.
    /// - Returns: The stream; its ``MailStream/id`` is the registration's id.
    public func mail<M: VerifiedMail & Sendable>(
        _ mailType: M.Type, sender: M.RequiredSender? = nil, options: RegistrationOptions = [],
        bufferingPolicy: MailStream<M>.BufferingPolicy = .unbounded, file: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line
    ) -> MailStream<M> {
        stream(
            M.self, sender: sender, options: options, bufferingPolicy: bufferingPolicy, file: file, filePath: filePath,
            line: line)
    }

    /// The one stream path both doors take: a block registration that yields each mail on the posting thread.
    private func stream<M: Sendable>(
        _: M.Type, sender: AnyObject?, options: RegistrationOptions, bufferingPolicy: MailStream<M>.BufferingPolicy,
        file: StaticString, filePath: StaticString, line: UInt
    ) -> MailStream<M> {
        let (stream, continuation) = AsyncStream.makeStream(of: M.self, bufferingPolicy: bufferingPolicy)
        let ends = options.contains(.once)
        let id = add(
            M.self, AnyObject.self, senderParameter: .absent, queue: nil, exactSender: sender, recipient: nil,
            options: options, file: file, filePath: filePath, line: line
        ) { mail, _, _ in
            continuation.yield(mail)
            if ends { continuation.finish() }
        }
        // Not `unregister(id)`, which waits for a handler running on another thread: a task's cancellation calls
        // this, and a handler yielding to the task's stream at that moment waits for the cancellation to end.
        continuation.onTermination = { [weak self] _ in self?.remove(id, waits: false) }
        return MailStream(stream: stream, subscription: StreamSubscription(office: self, id: id))
    }
}
