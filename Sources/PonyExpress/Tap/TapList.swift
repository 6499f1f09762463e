/// The taps attached to a post office at one moment. Immutable: attaching or detaching a tap replaces the list, and
/// every route carries the list it was built with.
final class TapList: Sendable {
    /// The first tap, kept apart so that the usual single tap is called without walking an array.
    let first: any DeliveryTap
    /// The other taps, in the order they were attached.
    let others: [any DeliveryTap]
    /// The taps that take a post and its synchronous deliveries in batches, in the order they were attached.
    let batching: [any DeliveryBatchTap]
    /// The first of them, called without walking the array.
    let firstBatching: (any DeliveryBatchTap)?
    /// The taps that take every synchronous delivery as a `.delivered` event as it happens.
    let unbatched: [any DeliveryTap]
    /// Whether any tap reads the times in events; if none does, posts do not read the clock.
    let isTimed: Bool

    /// Makes a list of `taps`, or returns `nil` when there are none.
    init?(_ taps: [any DeliveryTap]) {
        guard let first = taps.first else { return nil }
        self.first = first
        others = Array(taps.dropFirst())
        batching = taps.compactMap { $0 as? any DeliveryBatchTap }
        firstBatching = batching.first
        unbatched = taps.filter { !($0 is any DeliveryBatchTap) }
        isTimed = taps.contains { $0.wantsTimings }
    }

    /// Every tap, in the order they were attached.
    var all: [any DeliveryTap] { [first] + others }

    /// Hands `event` to every tap.
    @inline(__always)
    func emit(_ event: TapEvent) {
        first.receive(event)
        if !others.isEmpty {
            for tap in others { tap.receive(event) }
        }
    }

    /// Hands a post or a synchronous delivery to the taps that do not batch; the others get it in a batch.
    @inline(__always)
    func emitUnbatched(_ event: TapEvent) {
        if !unbatched.isEmpty {
            for tap in unbatched { tap.receive(event) }
        }
    }

    /// Hands the synchronous handler runs of a post to the batching taps, and empties the log.
    func emitBatch(of posting: Posting, from log: inout HandlerRunLog, completingPost: Bool) {
        let batch = DeliveryBatch(
            posting: posting, runs: UnsafeBufferPointer(start: log.runs, count: log.count),
            completesPost: completingPost)
        firstBatching?.receive(batch)
        if batching.count > 1 {
            for tap in batching.dropFirst() { tap.receive(batch) }
        }
        log.count = 0
    }
}
