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
