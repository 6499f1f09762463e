import Synchronization

/// A registration that lasts as long as this object: released or cancelled, it is unregistered.
///
/// A block is held strongly until its ``RecipientId`` is passed to ``PostOffice/unregister(_:)-(RecipientId)``; drop
/// the id and the block, and everything it captures, stays for the life of the post office. A subscription cannot be
/// dropped that way: keep it where the work that registered keeps its state, and the registration ends with it.
///
/// ```swift
/// final class CartBadge: Sendable {
///     let subscription: MailSubscription
///     init(office: PostOffice, counter: Counter) {
///         subscription = office.subscription(for: office.register { (update: CartUpdated) in counter.set(update.items) })
///     }
/// }  // a released badge unregisters its block: no leak, no deinit to write
/// ```
///
/// It works with every `register` overload: objects and methods, blocks, `@MainActor` blocks, queues, options.
/// Ending it is ``PostOffice/unregister(_:)-(RecipientId)``, with the same promise: once ``cancel()`` returns, or the
/// last reference is released, no handler of the registration starts or is still running on another thread. A
/// ``MailStream`` needs none: it unregisters when its task is cancelled or it is released.
public final class MailSubscription: Sendable, Hashable {
    /// The registration.
    public let id: RecipientId
    private weak let office: PostOffice?
    private let isActive = Atomic<Bool>(true)

    /// Takes over a registration of `office`: releasing or cancelling the subscription unregisters it.
    ///
    /// - Parameters:
    ///   - id: A registration's id, as `register` returned it.
    ///   - office: The post office it was registered with.
    public init(_ id: RecipientId, in office: PostOffice) {
        self.id = id
        self.office = office
    }

    /// Whether the registration was ended by ``cancel()``.
    public var isCancelled: Bool { !isActive.load(ordering: .acquiring) }

    /// Unregisters the registration now; later calls, and the release that follows, do nothing.
    public func cancel() {
        guard isActive.exchange(false, ordering: .acquiringAndReleasing) else { return }
        office?.unregister(id)
    }

    deinit {
        cancel()
    }

    public static func == (lhs: MailSubscription, rhs: MailSubscription) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension PostOffice {
    /// Wraps a registration in a ``MailSubscription``, which unregisters it when it is released or cancelled.
    ///
    /// ```swift
    /// let subscription = office.subscription(for: office.register { (update: CartUpdated) in print(update.items) })
    /// ```
    ///
    /// - Parameter id: The id a `register` call of this post office returned.
    /// - Returns: The subscription; keep it as long as the registration should live.
    public func subscription(for id: RecipientId) -> MailSubscription {
        MailSubscription(id, in: self)
    }
}
