/// The mail of one type as an `AsyncSequence`, from
/// ``PostOffice/mail(_:sender:options:bufferingPolicy:file:filePath:line:)-(_,AnyObject?,_,_,_,_,_)``.
///
/// ```swift
/// for await update in office.mail(CartUpdated.self) {
///     badge = update.items
/// }
/// ```
///
/// A registration feeds the stream from the posting thread; the consuming task receives the values, so `M` must be
/// `Sendable`. The registration is unregistered when the consuming task is cancelled, when the stream ends (a
/// ``RegistrationOptions/once`` stream ends after one value), or when the stream and all its iterators are
/// released; after that, no more values are buffered. Unlike `unregister`, the stream's end does not wait for a
/// handler running on another thread: the ended stream drops what it yields. Any task can iterate it, a
/// `@MainActor` one included.
///
/// `M` is a ``Mail`` or a ``VerifiedMail`` type: only the post office's `mail(_:)` doors make a stream.
public struct MailStream<M: Sendable>: AsyncSequence, Sendable {
    /// The mail type.
    public typealias Element = M
    /// A mail stream never fails; it ends.
    public typealias Failure = Never
    /// How many values wait for the consumer before old or new ones are dropped.
    public typealias BufferingPolicy = AsyncStream<M>.Continuation.BufferingPolicy

    let stream: AsyncStream<M>
    let subscription: StreamSubscription

    /// The registration that feeds the stream.
    public var id: RecipientId { subscription.id }

    /// Makes an iterator; it keeps the registration alive as long as it lives.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), subscription: subscription)
    }

    /// Iterates the mail of a ``MailStream``.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<M>.Iterator
        let subscription: StreamSubscription

        /// The next mail, or `nil` when the stream ended or the task was cancelled.
        public mutating func next() async -> M? {
            await base.next()
        }

        /// The next mail, awaited in the caller's isolation (a `@MainActor` loop stays on the main actor).
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The next mail, or `nil` when the stream ended or the task was cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> M? {
            await base.next(isolation: actor)
        }
    }
}
