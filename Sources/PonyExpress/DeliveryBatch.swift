/// A ``DeliveryTap`` that takes each post together with its synchronous deliveries, in one call.
///
/// A tap that does work per event, such as taking a lock, pays for it once per handler run and once more for the
/// post. A batching tap pays once per post instead: when a post's last synchronous handler has returned, the post
/// office hands it a ``DeliveryBatch`` holding the post and the runs of its synchronous handlers, rather than a
/// ``TapEvent/posted(_:)`` event and one ``TapEvent/delivered(_:)`` event per run. A post to more than
/// ``DeliveryBatch/capacity`` synchronous recipients is handed over in several batches; the last one
/// ``DeliveryBatch/completesPost``.
///
/// ```swift
/// final class HandlerTimeTap: DeliveryBatchTap {
///     let total = Atomic<UInt64>(0)
///     func receive(_ event: TapEvent) {
///         if case .delivered(let delivery) = event { total.add(delivery.duration, ordering: .relaxed) }
///     }
///     func receive(_ batch: borrowing DeliveryBatch) {
///         var sum: UInt64 = 0
///         for index in 0..<batch.count { sum += batch[index].duration }
///         total.add(sum, ordering: .relaxed)
///     }
/// }
/// ```
///
/// Attach it like any tap:
///
/// ```swift
/// office.attach(HandlerTimeTap())
/// ```
///
/// Every other event still arrives through ``DeliveryTap/receive(_:)`` as it happens, and so do deliveries on a
/// queue, which run after the post returned. So a batching tap sees each post once, in a batch, and each handler
/// run once, in a batch or as a `.delivered` event. It sees them when the post ends, so it may see events that
/// happened during the post first: a skip of the post, or a post, registration or unregistration made by one of its
/// handlers. Taps that do not batch see every event when it happens, as before.
public protocol DeliveryBatchTap: DeliveryTap {
    /// Called with a post and the runs of its synchronous handlers, on the posting thread, after the last of them
    /// returned. The batch is valid only during the call.
    func receive(_ batch: borrowing DeliveryBatch)
}

/// A post and the runs of its synchronous handlers, in the order they ran, handed to a ``DeliveryBatchTap``.
///
/// It lives on the posting thread's stack: it cannot be copied, and is valid only during the call it is passed to.
/// Copy out the ``Posting`` and ``HandlerRun`` values to keep them.
public struct DeliveryBatch: ~Copyable {
    /// The most handler runs one batch holds; a post to more synchronous recipients hands over several batches.
    public static let capacity = 32

    /// The post the handler runs belong to.
    public let posting: Posting
    /// Whether this is the post's last batch: the one that stands for the post, which a batching tap is not sent
    /// as a ``TapEvent/posted(_:)`` event. Earlier batches of the same post only hold handler runs.
    public let completesPost: Bool
    private let runs: UnsafeBufferPointer<HandlerRun>

    init(posting: Posting, runs: UnsafeBufferPointer<HandlerRun>, completesPost: Bool) {
        self.posting = posting
        self.runs = runs
        self.completesPost = completesPost
    }

    /// How many handler runs the batch holds; none for a post without synchronous recipients.
    public var count: Int { runs.count }

    /// The handler run at `index`, from 0 to ``count`` - 1.
    public subscript(index: Int) -> HandlerRun { runs[index] }

    /// The handler run at `index` as a ``TapEvent/delivered(_:)`` event would carry it.
    public func delivery(at index: Int) -> Delivery {
        let run = runs[index]
        return Delivery(
            postId: posting.postId, recipient: run.recipient, mailType: posting.mailType, queueLabel: nil,
            postedAt: posting.time, startedAt: run.startedAt, finishedAt: run.finishedAt)
    }
}

/// One run of a synchronous handler, in a ``DeliveryBatch``.
public struct HandlerRun: Hashable, Sendable {
    /// The recipient that ran.
    public let recipient: RecipientId
    /// When the handler started.
    public let startedAt: Nanoseconds
    /// When the handler returned.
    public let finishedAt: Nanoseconds

    /// How long the handler ran.
    public var duration: Nanoseconds { finishedAt &- startedAt }
}

/// The handler runs of one post not yet handed to its batching taps: a fixed buffer on the posting thread's stack.
struct HandlerRunLog {
    let runs: UnsafeMutablePointer<HandlerRun>
    var count = 0

    init(_ runs: UnsafeMutablePointer<HandlerRun>) {
        self.runs = runs
    }
}
