/// One run of a synchronous handler, in a ``DeliveryBatch``.
public struct HandlerRun: Hashable, Sendable {
    /// The recipient that ran.
    public let recipient: RecipientId
    /// When the handler started; `0` when the run was not timed (``isTimed``).
    public let startedAt: Nanoseconds
    /// When the handler returned; `0` when the run was not timed (``isTimed``).
    public let finishedAt: Nanoseconds

    /// Whether the run was timed: `false` when no tap reads times, and for the runs of the posts a tap that samples
    /// timings left untimed (``DeliveryTap/timingInterval``). An untimed run's times and ``duration`` are `0`.
    public var isTimed: Bool { finishedAt != 0 }

    /// How long the handler ran.
    public var duration: Nanoseconds { finishedAt &- startedAt }
}
