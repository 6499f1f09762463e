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
    /// When the handler started; `0` when the run was not timed (``isTimed``).
    public let startedAt: Nanoseconds
    /// When the handler returned; `0` when the run was not timed (``isTimed``).
    public let finishedAt: Nanoseconds
    /// The part of ``duration`` the handler spent inside posts it made itself, on its thread: their routing and
    /// their own recipients' handlers, which those recipients' runs account for. `0` when it posted nothing or the
    /// run was not timed.
    public internal(set) var nestedTime: Nanoseconds = 0
    /// Whether this run replayed kept mail to a new ``RegistrationOptions/replay`` registration rather than
    /// delivering a post; a replay has no post: its ``postId`` is 0 and its ``postedAt`` is when the registration was made.
    public internal(set) var isReplay: Bool = false

    /// Time from `post` to the handler's start: the queue wait for queued delivery; `0` when not timed.
    public var wait: Nanoseconds { finishedAt == 0 ? 0 : startedAt &- postedAt }
    /// Whether the run was timed: `false` when no tap reads times, and for the runs of the posts a tap that samples
    /// timings left untimed (``DeliveryTap/timingInterval``). An untimed run's times and ``duration`` are `0`.
    public var isTimed: Bool { finishedAt != 0 }
    /// How long the handler ran.
    public var duration: Nanoseconds { finishedAt &- startedAt }
    /// How long the handler ran outside the posts it made: its own work, as a profiler's self time.
    public var selfDuration: Nanoseconds { duration &- Swift.min(nestedTime, duration) }
}
