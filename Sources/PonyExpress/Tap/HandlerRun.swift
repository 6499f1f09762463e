/// One run of a synchronous handler, in a ``DeliveryBatch``.
public struct HandlerRun: Hashable, Sendable {
    /// The recipient that ran.
    public let recipient: RecipientId
    /// When the handler started; `0` when the run was not timed (``isTimed``).
    public let startedAt: Nanoseconds
    /// When the handler returned; `0` when the run was not timed (``isTimed``).
    public let finishedAt: Nanoseconds
    /// The part of ``duration`` the handler spent inside posts it made itself, on this thread: their routing and
    /// their own recipients' handlers, which those recipients' runs account for. `0` when it posted nothing or the
    /// run was not timed.
    public var nestedTime: Nanoseconds = 0

    /// Whether the run was timed: `false` when no tap reads times, and for the runs of the posts a tap that samples
    /// timings left untimed (``DeliveryTap/timingInterval``). An untimed run's times and ``duration`` are `0`.
    public var isTimed: Bool { finishedAt != 0 }

    /// How long the handler ran.
    public var duration: Nanoseconds { finishedAt &- startedAt }
    /// How long the handler ran outside the posts it made: its own work, as a profiler's self time.
    public var selfDuration: Nanoseconds { duration &- Swift.min(nestedTime, duration) }
}
