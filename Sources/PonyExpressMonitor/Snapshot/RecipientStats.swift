import PonyExpress

/// One live recipient of a mail type, with what the monitor has seen of its deliveries.
public struct RecipientStats: Sendable, Codable, Hashable {
    /// The registration.
    public let info: RecipientInfo
    /// How many times its handler ran since the monitor was attached or reset.
    public let deliveries: UInt64
    /// The distribution of its handler's durations, when tracked per recipient; the monitor keeps per-recipient
    /// totals only (see ``handlerTime`` and ``maxHandlerTime``), so this is `nil`.
    public let handlerLatency: LatencySummary?
    /// Whether the same object is registered more than once for the same mail type.
    public let isDuplicate: Bool
    /// The total time its handler ran, in nanoseconds.
    public let handlerTime: Nanoseconds
    /// The longest single run of its handler, in nanoseconds.
    public let maxHandlerTime: Nanoseconds

    /// The mean duration of its handler, in nanoseconds, or 0 before its first delivery.
    public var meanHandlerTime: Double {
        deliveries == 0 ? 0 : Double(handlerTime) / Double(deliveries)
    }

    /// Creates recipient statistics.
    ///
    /// - Parameters:
    ///   - info: The registration.
    ///   - deliveries: How many times its handler ran.
    ///   - handlerLatency: Its handler's distribution, if tracked.
    ///   - isDuplicate: Whether the same object is registered more than once for the mail type.
    ///   - handlerTime: The total time its handler ran.
    ///   - maxHandlerTime: The longest single run.
    public init(
        info: RecipientInfo, deliveries: UInt64, handlerLatency: LatencySummary?, isDuplicate: Bool,
        handlerTime: Nanoseconds, maxHandlerTime: Nanoseconds
    ) {
        self.info = info
        self.deliveries = deliveries
        self.handlerLatency = handlerLatency
        self.isDuplicate = isDuplicate
        self.handlerTime = handlerTime
        self.maxHandlerTime = maxHandlerTime
    }
}
