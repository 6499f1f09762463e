import PonyExpress

/// One live registration that receives a posted mail type, with what it received of that type.
///
/// A registration for a class receives mail of its subclasses too: ``MonitorSnapshot/receivers(of:)`` lists, for a
/// posted type, the registrations for that type and those for its superclasses (``isInherited``).
///
/// ```swift
/// for receiver in snapshot.receivers(of: TypeIdentity(ScreenViewed.self)) {
///     let via = receiver.isInherited ? " (registered for \(receiver.recipient.info.mailType))" : ""
///     print(receiver.recipient.info.id, receiver.deliveries, via)
/// }
/// ```
public struct ReceiverStats: Sendable, Hashable {
    /// The registration and its totals over every mail type it received.
    public let recipient: RecipientStats
    /// Whether it is registered for a superclass of the posted type rather than for the type itself.
    public let isInherited: Bool
    /// How many times its handler ran for mail of the posted type.
    public let deliveries: UInt64
    /// The total time those runs took, in nanoseconds.
    public let handlerTime: Nanoseconds
    /// How many of the registration's handler runs, of every posted type, were timed: the monitor times one post
    /// in ``MonitorSettings/handlerTimingInterval``. Known to the finding rules, which see the monitor's own counts;
    /// a snapshot's receivers count every run.
    let timedRuns: UInt64
    /// The registry's row of its registration site, for the rules; `nil` when made by the public initializer.
    let siteRow: Int?

    /// Creates receiver statistics.
    ///
    /// - Parameters:
    ///   - recipient: The registration and its totals.
    ///   - isInherited: Whether it is registered for a superclass of the posted type.
    ///   - deliveries: Its handler runs for the posted type.
    ///   - handlerTime: Their total time.
    public init(recipient: RecipientStats, isInherited: Bool, deliveries: UInt64, handlerTime: Nanoseconds) {
        self.recipient = recipient
        self.isInherited = isInherited
        self.deliveries = deliveries
        self.handlerTime = handlerTime
        timedRuns = recipient.deliveries
        siteRow = nil
    }

    /// Creates receiver statistics that say how many of the recipient's runs were timed, and its site's row.
    init(
        recipient: RecipientStats, isInherited: Bool, deliveries: UInt64, handlerTime: Nanoseconds, timedRuns: UInt64,
        siteRow: Int
    ) {
        self.recipient = recipient
        self.isInherited = isInherited
        self.deliveries = deliveries
        self.handlerTime = handlerTime
        self.timedRuns = timedRuns
        self.siteRow = siteRow
    }
}
