/// The taps of one post and the post's identity, carried to every delivery of that post.
struct TapContext: @unchecked Sendable {
    /// Not owned, which spares reference counting on every event: the post holds its route, which holds the taps,
    /// and a queued delivery holds them itself.
    let unownedTaps: Unmanaged<TapList>
    let posting: Posting
    /// Whether this post's handler runs are timed: some tap reads times, and, if the taps sample timings, it is this
    /// thread's turn. If not, the clock is not read after each handler.
    let isTimed: Bool
    /// Where the post's synchronous handler runs wait for its batching taps; `nil` when no tap batches, and for a
    /// queued delivery.
    let log: UnsafeMutablePointer<HandlerRunLog>?
    /// Whether some tap takes synchronous deliveries as events even though another batches them.
    let hasUnbatchedTaps: Bool
    /// Whether the deliveries replay kept mail to a new registration rather than deliver a post.
    var isReplay = false

    init(taps: TapList, posting: Posting, isTimed: Bool, log: UnsafeMutablePointer<HandlerRunLog>? = nil) {
        unownedTaps = .passUnretained(taps)
        self.posting = posting
        self.isTimed = isTimed
        self.log = log
        hasUnbatchedTaps = taps.hasUnbatched
    }

    /// The same post, for a delivery on a queue: reported as an event to every tap, and timed whenever a tap reads
    /// times. For a post left untimed, whose time is coarse, the queue's wait counts from the scheduling.
    var queued: TapContext {
        let taps = taps
        var posting = posting
        if taps.isTimed, !isTimed {
            posting = Posting(
                postId: posting.postId, mailType: posting.mailType, senderType: posting.senderType,
                matched: posting.matched, time: MonotonicClock.now(), origin: posting.origin)
        }
        var queued = TapContext(taps: taps, posting: posting, isTimed: taps.isTimed)
        queued.isReplay = isReplay
        return queued
    }

    /// Calls `body` with the address of `context`, or with `nil`: the delivery path takes a post's context by
    /// address, which lets each handler run read the fields it needs instead of copying the whole value.
    static func withAddress<R>(of context: TapContext?, _ body: (UnsafePointer<TapContext>?) -> R) -> R {
        guard let context else { return body(nil) }
        return withUnsafePointer(to: context) { body($0) }
    }

    /// The taps, owned: for a queued delivery to keep.
    var taps: TapList { unownedTaps.takeUnretainedValue() }

    @inline(__always)
    func emit(_ event: TapEvent) {
        unownedTaps._withUnsafeGuaranteedRef { $0.emit(event) }
    }

    /// Reports a handler run as a `.delivered` event to the taps that do not take it in a batch.
    @inline(__always)
    func emitUnbatched(_ event: TapEvent) {
        if log == nil { return emit(event) }
        unownedTaps._withUnsafeGuaranteedRef { $0.emitUnbatched(event) }
    }

    /// Reports a handler run as a `.delivered` event to the taps that do not take it in a batch. Out of line: a post
    /// whose taps all batch never calls it.
    @inline(never)
    func reportDelivery(
        by registration: Registration, startedAt: Nanoseconds, finishedAt: Nanoseconds, nestedTime: Nanoseconds
    ) {
        emitUnbatched(
            .delivered(
                Delivery(
                    postId: posting.postId, recipient: registration.id, mailType: posting.mailType,
                    queueLabel: registration.queueLabel, postedAt: posting.time, startedAt: startedAt,
                    finishedAt: finishedAt, nestedTime: nestedTime, isReplay: isReplay)))
    }

    /// Adds a synchronous handler run to the post's batch, handing the batch over when it is full. Static, on the
    /// context's address: a method would copy the whole context for each run to pass it along.
    @inline(__always)
    static func log(_ run: HandlerRun, in log: UnsafeMutablePointer<HandlerRunLog>, of context: UnsafePointer<Self>) {
        (log.pointee.runs + log.pointee.count).initialize(to: run)
        log.pointee.count &+= 1
        if log.pointee.count == DeliveryBatch.capacity { emitFullBatch(from: log, of: context) }
    }

    @inline(never)
    private static func emitFullBatch(from log: UnsafeMutablePointer<HandlerRunLog>, of context: UnsafePointer<Self>) {
        emitBatch(of: context, from: log, completingPost: false)
    }

    /// Hands the logged handler runs to the batching taps; the post's last batch also stands for the post.
    ///
    /// The batch refers to the post where the context holds it, on the posting thread's stack, instead of a copy.
    static func emitBatch(
        of context: UnsafePointer<Self>, from log: UnsafeMutablePointer<HandlerRunLog>, completingPost: Bool
    ) {
        let posting = (UnsafeRawPointer(context) + MemoryLayout<Self>.offset(of: \.posting)!)
            .assumingMemoryBound(to: Posting.self)
        context.pointee.unownedTaps._withUnsafeGuaranteedRef {
            $0.emitBatch(of: posting, from: &log.pointee, completingPost: completingPost)
        }
    }

    func skip(_ registration: Registration, _ reason: Skip.Reason) {
        skip(registration.id, reason)
    }

    func skip(_ id: RecipientId, _ reason: Skip.Reason) {
        emit(.skipped(Skip(postId: posting.postId, recipient: id, mailType: posting.mailType, reason: reason)))
    }
}
