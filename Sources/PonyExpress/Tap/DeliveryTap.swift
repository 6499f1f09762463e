/// An observer of everything that happens in a ``PostOffice``: registrations, posts, deliveries, skips and prunes.
///
/// Attach a tap with ``PostOffice/attach(_:)`` and remove it with ``PostOffice/detach(_:)``. Several taps may be
/// attached at once, from any thread, at any time.
///
/// ```swift
/// final class CountingTap: DeliveryTap {
///     let deliveries = Atomic<Int>(0)
///     func receive(_ event: TapEvent) {
///         if case .delivered = event { deliveries.add(1, ordering: .relaxed) }
///     }
/// }
/// ```
///
/// ``receive(_:)`` is called on the thread where the event happens (the posting thread, or the recipient's queue
/// for queued deliveries), with no lock of the post office held, so a tap may call back into the post office.
/// It must be quick and thread-safe: it runs inside every `post`. Events carry metatypes and numbers, never
/// formatted strings; resolve type names lazily with ``TypeIdentity/name``.
///
/// Events of a post that was already under way when the tap was detached may still arrive.
///
/// A tap that takes a lock or does other fixed work per call can adopt ``DeliveryBatchTap`` instead, to take each
/// post together with its synchronous handler runs in one call.
public protocol DeliveryTap: AnyObject, Sendable {
    /// Called once for each event.
    func receive(_ event: TapEvent)

    /// Whether this tap reads the times of posts and deliveries. Reading the clock is most of what a tap costs a
    /// post, so a tap that only counts can say `false`; while no attached tap wants timings, ``Posting/time`` and
    /// the times of ``Delivery`` and ``HandlerRun`` are `0`. Registrations, unregistrations and prunes always carry
    /// real times (``RecipientInfo/registeredAt``, ``Unregistration/time``, ``Prune/time``): they are rare, and a
    /// registration's age must be known to a tap attached later. The default is `true`.
    var wantsTimings: Bool { get }
}

extension DeliveryTap {
    /// Taps read the times in events unless they say otherwise.
    public var wantsTimings: Bool { true }
}
