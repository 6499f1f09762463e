import Synchronization

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
    /// Whether ``unbatched`` has a tap: when it has none, a post does not even make the events they would take.
    let hasUnbatched: Bool
    /// Whether any tap reads the times in events; if none does, posts do not read the clock.
    let isTimed: Bool
    /// A number no other list of this process has, however lists are allocated: how a thread tells that its post
    /// goes to other taps than its last timed one did (``TimingTurns``).
    let serial: UInt64
    private static let nextSerial = Atomic<UInt64>(1)
    /// How many posts one timed post stands for: the least ``DeliveryTap/timingInterval`` of the taps that read
    /// times, 1 when every post is timed.
    let timingInterval: Int

    /// Makes a list of `taps`, or returns `nil` when there are none.
    init?(_ taps: [any DeliveryTap]) {
        guard let first = taps.first else { return nil }
        self.first = first
        others = Array(taps.dropFirst())
        batching = taps.compactMap { $0 as? any DeliveryBatchTap }
        firstBatching = batching.first
        unbatched = taps.filter { !($0 is any DeliveryBatchTap) }
        hasUnbatched = !unbatched.isEmpty
        isTimed = taps.contains { $0.wantsTimings }
        serial = Self.nextSerial.wrappingAdd(1, ordering: .relaxed).oldValue
        timingInterval = Swift.max(1, taps.filter(\.wantsTimings).map(\.timingInterval).min() ?? 1)
    }

    /// The time of a post about to start, and whether it is timed: read from the fine clock when it is, from the
    /// coarse clock when the taps sample timings and this is not the thread's turn (a post inside a timed run always
    /// is), `0` when no tap reads times.
    @inline(__always)
    func postTime(turns: TimingTurns, insideTimedRun: Bool) -> (time: Nanoseconds, isTimed: Bool) {
        guard isTimed else { return (0, false) }
        // A post inside a timed run is timed too: the run's nested time is then its recipients' handler time.
        guard timingInterval > 1, !insideTimedRun else { return (MonotonicClock.now(), true) }
        let coarse = MonotonicClock.coarseNow()
        guard turns.take(interval: timingInterval, now: coarse, taps: serial) else {
            return (coarse, false)
        }
        return (MonotonicClock.now(), true)
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

    /// Hands a post or a synchronous delivery to the taps that do not batch; the others get it in a batch. The
    /// event is made only when some tap takes it: a `TapEvent` is as large as a `Delivery`, to fill and copy.
    @inline(__always)
    func emitUnbatched(_ event: @autoclosure () -> TapEvent) {
        guard hasUnbatched else { return }
        let event = event()
        for tap in unbatched { tap.receive(event) }
    }

    /// Hands the synchronous handler runs of a post to the batching taps, and empties the log.
    func emitBatch(of posting: UnsafePointer<Posting>, from log: inout HandlerRunLog, completingPost: Bool) {
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
