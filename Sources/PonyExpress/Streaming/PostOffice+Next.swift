import Dispatch

/// The error of a wait for mail that did not come in time.
public struct MailTimeout: Error, Sendable, CustomStringConvertible {
    /// The mail type waited for.
    public let mailType: TypeIdentity
    /// How long the wait lasted.
    public let timeout: Duration

    public var description: String { "no \(mailType.name) mail came within \(timeout)" }
}

extension PostOffice {
    /// Waits for the next mail of `mailType` that passes `predicate`, for at most `timeout`.
    ///
    /// ```swift
    /// // A long poll: the next message of room 7, or nothing after 300 ms.
    /// let message = try await office.next(MessagePosted.self, where: { $0.room == 7 }, timeout: .milliseconds(300))
    /// ```
    ///
    /// It registers at once, so mail posted after the call starts counts, and it unregisters on every way out: the
    /// first matching mail, the timeout, or the task's cancellation. No registration outlives the call. While it
    /// waits, the wait is a block registration at the caller's line, as taps and ponytop see any other.
    ///
    /// `predicate` runs on the posting thread, for each mail of the type until one matches, so it must be cheap and
    /// `Sendable`; the matching mail crosses to the waiting task.
    ///
    /// - Parameters:
    ///   - mailType: The mail type to wait for.
    ///   - sender: Take only mail posted by exactly this instance, held weakly.
    ///   - predicate: Whether a mail is the one waited for; every mail by default.
    ///   - timeout: How long to wait; `nil` waits until a mail matches or the task is cancelled.
    ///   - file: Where the wait is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the wait, reported to taps; leave the default.
    /// - Returns: The first mail that matched.
    /// - Throws: ``MailTimeout`` when no mail matched in time; `CancellationError` when the task was cancelled.
    public func next<M: Mail & Sendable>(
        _ mailType: M.Type, sender: AnyObject? = nil, where predicate: @escaping @Sendable (M) -> Bool = { _ in true },
        timeout: Duration?, file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) async throws -> M {
        try await wait(
            M.self, sender: sender, predicate: predicate, timeout: timeout, file: file, filePath: filePath, line: line)
    }

    /// Waits for the next verified mail of `mailType` that passes `predicate`, for at most `timeout`.
    ///
    /// `Mail`'s `next(_:sender:where:timeout:file:filePath:line:)`, for ``VerifiedMail``: an exact `sender` must be a
    /// `RequiredSender`.
    ///
    /// - Parameters:
    ///   - mailType: The verified mail type to wait for.
    ///   - sender: Take only mail posted by exactly this instance, held weakly.
    ///   - predicate: Whether a mail is the one waited for; every mail by default.
    ///   - timeout: How long to wait; `nil` waits until a mail matches or the task is cancelled.
    ///   - file: Where the wait is made, reported to taps; leave the default.
    ///   - filePath: The file's full path, reported to taps so that a tool can find it in the repository; leave the default.
    ///   - line: The line of the wait, reported to taps; leave the default.
    /// - Returns: The first mail that matched.
    /// - Throws: ``MailTimeout`` when no mail matched in time; `CancellationError` when the task was cancelled.
    public func next<M: VerifiedMail & Sendable>(
        _ mailType: M.Type, sender: M.RequiredSender? = nil,
        where predicate: @escaping @Sendable (M) -> Bool = { _ in true }, timeout: Duration?,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) async throws -> M {
        try await wait(
            M.self, sender: sender, predicate: predicate, timeout: timeout, file: file, filePath: filePath, line: line)
    }

    /// The one wait both doors take.
    private func wait<M: Sendable>(
        _: M.Type, sender: AnyObject?, predicate: @escaping @Sendable (M) -> Bool, timeout: Duration?,
        file: StaticString, filePath: StaticString, line: UInt
    ) async throws -> M {
        try Task.checkCancellation()
        let waiter = MailWaiter<M>(office: self)
        let id = add(
            M.self, AnyObject.self, senderParameter: .absent, queue: nil, exactSender: sender, recipient: nil,
            options: [], file: file, filePath: filePath, line: line
        ) { mail, _, _ in
            if waiter.isWaiting, predicate(mail) { waiter.end(.success(mail)) }
        }
        waiter.attach(id)
        if let timeout {
            let expired = MailTimeout(mailType: TypeIdentity(M.self), timeout: timeout)
            waiter.schedule(DispatchWorkItem { waiter.end(.failure(expired)) }, after: timeout)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in waiter.wait(continuation) }
        } onCancel: {
            waiter.end(.failure(CancellationError()))
        }
    }
}
