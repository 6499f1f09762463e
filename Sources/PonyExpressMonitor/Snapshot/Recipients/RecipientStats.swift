import PonyExpress

/// One live recipient of a mail type, with what the monitor has seen of its deliveries.
public struct RecipientStats: Sendable, Hashable {
    /// The registration.
    public let info: RecipientInfo
    /// How many times its handler ran since the monitor was attached or reset.
    public let deliveries: UInt64
    /// The distribution of its handler's durations, when tracked per recipient; the monitor keeps per-recipient
    /// totals only (see ``handlerTime`` and ``maxHandlerTime``), so this is `nil`.
    public let handlerLatency: LatencySummary?
    /// Whether the same object is registered more than once for the same mail type.
    public let isDuplicate: Bool
    /// The total time its handler ran, in nanoseconds: the mean of its timed runs times its deliveries (see
    /// ``MonitorSettings/handlerTimingInterval``); exact when every run was timed.
    public let handlerTime: Nanoseconds
    /// The longest timed run of its handler, in nanoseconds.
    public let maxHandlerTime: Nanoseconds
    /// Its deliveries of posted types other than the one it registered for (subclasses of a class it registered
    /// for), by type; empty when all its mail was of its registered type. ``deliveries`` and ``handlerTime`` include
    /// them.
    public let deliveriesByPostedType: [PostedTypeDeliveries]
    /// How many of its ``deliveries`` replayed kept mail to it when it registered with
    /// `RegistrationOptions.replay`: 0 or 1, unless the monitor saw it re-registered.
    public let replays: UInt64

    /// Its deliveries and handler time for mail of exactly `mailType`, a type it registered for or a subclass of it.
    ///
    /// - Parameter mailType: A posted mail type.
    /// - Returns: Its handler runs for that type and their total time.
    public func received(_ mailType: TypeIdentity) -> (deliveries: UInt64, handlerTime: Nanoseconds) {
        if mailType == info.mailType {
            var deliveries = self.deliveries
            var handlerTime = self.handlerTime
            for other in deliveriesByPostedType {
                deliveries -= Swift.min(deliveries, other.deliveries)
                handlerTime -= Swift.min(handlerTime, other.handlerTime)
            }
            return (deliveries, handlerTime)
        }
        let other = deliveriesByPostedType.first { $0.mailType == mailType }
        return (other?.deliveries ?? 0, other?.handlerTime ?? 0)
    }

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
    ///   - deliveriesByPostedType: Its deliveries of subclasses of its registered type, by type.
    ///   - replays: How many of its deliveries replayed kept mail.
    public init(
        info: RecipientInfo, deliveries: UInt64, handlerLatency: LatencySummary?, isDuplicate: Bool,
        handlerTime: Nanoseconds, maxHandlerTime: Nanoseconds, deliveriesByPostedType: [PostedTypeDeliveries] = [],
        replays: UInt64 = 0
    ) {
        self.deliveriesByPostedType = deliveriesByPostedType
        self.replays = replays
        self.info = info
        self.deliveries = deliveries
        self.handlerLatency = handlerLatency
        self.isDuplicate = isDuplicate
        self.handlerTime = handlerTime
        self.maxHandlerTime = maxHandlerTime
    }
}
