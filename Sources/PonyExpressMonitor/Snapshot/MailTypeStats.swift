import PonyExpress

/// Everything the monitor knows about one mail type.
public struct MailTypeStats: Sendable, Codable, Hashable, Identifiable {
    /// The mail type.
    public var id: TypeIdentity { mailType }
    /// The mail type: the posted dynamic type for traffic, the registered type for recipients.
    public let mailType: TypeIdentity
    /// Calls to `post` with mail of this dynamic type.
    public let posts: UInt64
    /// Of ``posts``, those a `NotificationCenter` bridge made from notifications (`PostOrigin.bridged`).
    public var bridgedPosts: UInt64 { bridged }
    /// ``bridgedPosts``, stored under the name both encodings give it. (The wire leaves it out when 0, as wire 1.1
    /// and earlier data, which have no bridge, do: that is the wire's business, not this type's.)
    package let bridged: UInt64
    /// Handler runs for mail of this dynamic type.
    public let deliveries: UInt64
    /// Matched recipients skipped for mail of this dynamic type.
    public let skipped: UInt64
    /// Registrations for this type pruned.
    public let pruned: UInt64
    /// Posts per second over the short window.
    public let postsPerSecond: Double
    /// Deliveries per second over the short window.
    public let deliveriesPerSecond: Double
    /// Posts per second over the long window.
    public let postsPerSecondLong: Double
    /// Deliveries per second over the long window.
    public let deliveriesPerSecondLong: Double
    /// Deliveries in each of the last completed seconds, oldest first.
    public let history: [Double]
    /// Live recipients registered for this type.
    public let recipients: RecipientCounts
    /// Handler durations of the timed deliveries (see ``MonitorSettings/handlerTimingInterval``): its count is
    /// how many were timed, not ``deliveries``.
    public let handlerLatency: LatencySummary
    /// Waits from post to handler start, queued deliveries only.
    public let queueWait: LatencySummary
    /// For a class, its superclasses that the monitor has seen registered or posted, nearest first: mail of this type
    /// also goes to their recipients.
    public let superclasses: [TypeIdentity]
    /// Live recipients registered for one of ``superclasses``, which receive this type's mail too (not counted in
    /// ``recipients``). ``MonitorSnapshot/receivers(of:)`` lists them with what they received.
    public let inheritedRecipients: Int
    /// What a relay did with this type, when the monitor watches one that shares it (``PostOfficeMonitor/watch(_:)``);
    /// `nil` for a type that is not shared.
    public internal(set) var relay: RelayFigures?

    /// Creates mail type statistics; a figure left out is zero, empty or none.
    ///
    /// - Parameters:
    ///   - mailType: The mail type.
    ///   - posts: Posts.
    ///   - deliveries: Deliveries.
    ///   - skipped: Skipped recipients.
    ///   - pruned: Pruned registrations.
    ///   - postsPerSecond: Posts per second, short window.
    ///   - deliveriesPerSecond: Deliveries per second, short window.
    ///   - postsPerSecondLong: Posts per second, long window.
    ///   - deliveriesPerSecondLong: Deliveries per second, long window.
    ///   - history: Deliveries per second, oldest first.
    ///   - recipients: Live recipients.
    ///   - handlerLatency: Handler durations.
    ///   - queueWait: Queue waits.
    ///   - superclasses: Its superclasses seen by the monitor, nearest first.
    ///   - inheritedRecipients: Live recipients registered for one of its superclasses.
    ///   - bridgedPosts: Of the posts, those a bridge made; `nil` or 0 for none.
    ///   - relay: What a relay did with this type, `nil` for a type that is not shared.
    public init(
        mailType: TypeIdentity, posts: UInt64 = 0, deliveries: UInt64 = 0, skipped: UInt64 = 0, pruned: UInt64 = 0,
        postsPerSecond: Double = 0, deliveriesPerSecond: Double = 0, postsPerSecondLong: Double = 0,
        deliveriesPerSecondLong: Double = 0, history: [Double] = [], recipients: RecipientCounts = .none,
        handlerLatency: LatencySummary = .empty, queueWait: LatencySummary = .empty, superclasses: [TypeIdentity] = [],
        inheritedRecipients: Int = 0, bridgedPosts: UInt64? = nil, relay: RelayFigures? = nil
    ) {
        bridged = bridgedPosts ?? 0
        self.relay = relay
        self.superclasses = superclasses
        self.inheritedRecipients = inheritedRecipients
        self.mailType = mailType
        self.posts = posts
        self.deliveries = deliveries
        self.skipped = skipped
        self.pruned = pruned
        self.postsPerSecond = postsPerSecond
        self.deliveriesPerSecond = deliveriesPerSecond
        self.postsPerSecondLong = postsPerSecondLong
        self.deliveriesPerSecondLong = deliveriesPerSecondLong
        self.history = history
        self.recipients = recipients
        self.handlerLatency = handlerLatency
        self.queueWait = queueWait
    }
}

extension MailTypeStats {
    /// The counts since `earlier`, the same mail type in an earlier snapshot of the same monitor: what a consumer
    /// that keeps its own starting point (a viewer's reset, a report of a run) shows.
    ///
    /// Posts, deliveries, skipped recipients, prunes, bridged posts and the relay's sent, received and dropped mail
    /// count from `earlier`; a count that went down (the app reset its monitor in between) counts from zero. Rates,
    /// history, live recipients and latencies are this snapshot's own.
    public func since(_ earlier: MailTypeStats) -> MailTypeStats {
        MailTypeStats(
            mailType: mailType, posts: posts.since(earlier.posts), deliveries: deliveries.since(earlier.deliveries),
            skipped: skipped.since(earlier.skipped), pruned: pruned.since(earlier.pruned),
            postsPerSecond: postsPerSecond, deliveriesPerSecond: deliveriesPerSecond,
            postsPerSecondLong: postsPerSecondLong, deliveriesPerSecondLong: deliveriesPerSecondLong, history: history,
            recipients: recipients, handlerLatency: handlerLatency, queueWait: queueWait, superclasses: superclasses,
            inheritedRecipients: inheritedRecipients, bridgedPosts: bridged.since(earlier.bridged),
            relay: relay.map { $0.since(earlier.relay) })
    }
}

extension UInt64 {
    /// This count less `earlier`, or all of it when it went down (its counter was reset in between).
    package func since(_ earlier: UInt64) -> UInt64 {
        self >= earlier ? self - earlier : self
    }
}
