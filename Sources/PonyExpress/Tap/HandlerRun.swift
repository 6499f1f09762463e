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
