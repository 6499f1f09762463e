#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Whether this tap reads the times in events. Reading the clock is most of what a tap costs a post, so a tap
    /// that only counts can say `false`; while no attached tap wants timings, every time in events is `0`.
    /// The default is `true`.
    var wantsTimings: Bool { get }
}

extension DeliveryTap {
    /// Taps read the times in events unless they say otherwise.
    public var wantsTimings: Bool { true }
}

/// A ``DeliveryTap`` made from a closure.
public final class ClosureTap: DeliveryTap {
    private let body: @Sendable (TapEvent) -> Void

    /// Wraps `body`, which is called once for every event.
    public init(_ body: @escaping @Sendable (TapEvent) -> Void) {
        self.body = body
    }

    public func receive(_ event: TapEvent) {
        body(event)
    }
}

/// One thing that happened in a ``PostOffice``.
public enum TapEvent: Sendable {
    /// A recipient was registered.
    case registered(RecipientInfo)
    /// A recipient was unregistered by id or by object.
    case unregistered(Unregistration)
    /// Mail was posted; `matched` recipients will be considered for delivery. A ``DeliveryBatchTap`` gets the post
    /// in a ``DeliveryBatch`` instead.
    case posted(Posting)
    /// A handler ran. A ``DeliveryBatchTap`` gets the runs of synchronous handlers in a ``DeliveryBatch`` instead.
    case delivered(Delivery)
    /// A matched recipient did not receive a post.
    case skipped(Skip)
    /// A registration was removed because its recipient or its exact sender was released.
    case pruned(Prune)
}

/// A monotonic timestamp in nanoseconds: `CLOCK_MONOTONIC`, the clock of `DispatchTime.now().uptimeNanoseconds`.
public typealias Nanoseconds = UInt64

@inline(__always)
func now() -> Nanoseconds {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// How a recipient was registered.
public enum RecipientKind: Hashable, Sendable {
    /// An object and one of its methods; the object is held weakly.
    case object(TypeIdentity)
    /// A closure, held strongly until unregistered.
    case block

    /// The recipient object's type, or `nil` for a block.
    public var objectType: TypeIdentity? {
        if case .object(let type) = self { return type }
        return nil
    }
}

/// Which senders a registration accepts.
public enum SenderFilter: Hashable, Sendable {
    /// The handler has no sender parameter: any sender, `nil` included.
    case any
    /// The handler takes `S?`: a `nil` sender or an instance of `S` (or a subclass).
    case optional(TypeIdentity)
    /// The handler takes `S`: only an instance of `S` (or a subclass).
    case required(TypeIdentity)
    /// Registered with `sender:`: only mail posted by exactly that instance, of the given type.
    case exact(TypeIdentity)
}

/// A registration, as ``PostOffice/recipients(of:)`` and ``TapEvent/registered(_:)`` describe it.
public struct RecipientInfo: Hashable, Sendable {
    /// The registration's id.
    public let id: RecipientId
    /// The mail type the recipient registered for.
    public let mailType: TypeIdentity
    /// An object with a method, or a block.
    public let kind: RecipientKind
    /// The identity of the recipient object of a method registration, `nil` for a block.
    ///
    /// Two live registrations with the same identifier belong to the same object. Once the object is released its
    /// address, and so its identifier, may be reused by a new object.
    public let objectIdentifier: ObjectIdentifier?
    /// Which senders it accepts.
    public let sender: SenderFilter
    /// The label of the queue it is delivered on, or `nil` for synchronous delivery on the posting thread.
    public let queueLabel: String?
    /// Where `register` was called.
    public let site: SourceLocation
    /// When it was registered.
    public let registeredAt: Nanoseconds
}

/// A recipient removed with `unregister`.
public struct Unregistration: Hashable, Sendable {
    /// The registration's id.
    public let id: RecipientId
    /// The mail type it was registered for.
    public let mailType: TypeIdentity
    /// When it was removed.
    public let time: Nanoseconds
}

/// One call to `post`.
public struct Posting: Hashable, Sendable {
    /// A number that ties this post to its deliveries and skips.
    public let postId: UInt64
    /// The dynamic type of the posted value.
    public let mailType: TypeIdentity
    /// The dynamic type of the sender, or `nil` when posted without one.
    public let senderType: TypeIdentity?
    /// How many registrations matched the mail type (before sender filters).
    public let matched: Int
    /// When `post` was called.
    public let time: Nanoseconds
}

/// One handler run.
public struct Delivery: Hashable, Sendable {
    /// The post this delivery belongs to.
    public let postId: UInt64
    /// The recipient that ran.
    public let recipient: RecipientId
    /// The dynamic type of the posted value.
    public let mailType: TypeIdentity
    /// The queue label for queued delivery, `nil` for synchronous delivery on the posting thread.
    public let queueLabel: String?
    /// When `post` was called.
    public let postedAt: Nanoseconds
    /// When the handler started.
    public let startedAt: Nanoseconds
    /// When the handler returned.
    public let finishedAt: Nanoseconds

    /// Time from `post` to the handler's start: the queue wait for queued delivery.
    public var wait: Nanoseconds { startedAt &- postedAt }
    /// How long the handler ran.
    public var duration: Nanoseconds { finishedAt &- startedAt }
}

/// A matched recipient that did not receive a post.
public struct Skip: Hashable, Sendable {
    /// Why it was skipped.
    public enum Reason: Hashable, Sendable {
        /// The sender did not pass the registration's sender filter.
        case senderMismatch
        /// The recipient was unregistered after the post began and before its turn came, or another thread pruned
        /// it first (this post found it released too, but the prune is reported once, by the thread that removed it).
        case unregistered
    }

    /// The post.
    public let postId: UInt64
    /// The recipient.
    public let recipient: RecipientId
    /// The dynamic type of the posted value.
    public let mailType: TypeIdentity
    /// Why it was skipped.
    public let reason: Reason
}

/// A registration removed because a weakly held object was released.
public struct Prune: Hashable, Sendable {
    /// What was released.
    public enum Reason: Hashable, Sendable {
        /// The recipient object was released without unregistering.
        case recipientReleased
        /// The exact sender the registration was filtered on was released.
        case senderReleased
    }

    /// The registration that was removed.
    public let recipient: RecipientInfo
    /// What was released.
    public let reason: Reason
    /// When it was pruned.
    public let time: Nanoseconds

    /// How long the registration lived.
    public var age: Nanoseconds { time &- recipient.registeredAt }
}
