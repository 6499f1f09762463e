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

    /// How many posts one timed post stands for, for a tap that wants timings but can do with a sample of them.
    ///
    /// Timing a post reads the clock when it starts and after each synchronous handler, which is most of what a
    /// timing tap costs. With an interval of N, each thread times one post in N; and also its first post after it
    /// posted to other taps, the post after a timed post that took 25 µs or more per matched recipient (so slow
    /// handlers are timed every time), and a post that comes once the coarse clock moved by 1 ms or more since its
    /// last timed one (so a thread that posts every few milliseconds or less often has all of its posts timed).
    /// The others carry a ``Posting/time`` read from a coarse clock (at the resolution of the kernel's tick, a few
    /// milliseconds) and handler runs whose times are `0` (``HandlerRun/isTimed`` and ``Delivery/isTimed`` are
    /// `false`); a delivery on a queue is always timed. A post is timed as often as the tap that wants timings most
    /// often asks. The default is 1: every post is timed.
    var timingInterval: Int { get }
}

extension DeliveryTap {
    /// Taps read the times in events unless they say otherwise.
    public var wantsTimings: Bool { true }

    /// Taps have every post timed unless they say otherwise.
    public var timingInterval: Int { 1 }
}
