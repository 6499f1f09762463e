import PonyExpress

/// One mail type as the mail types table shows it.
public struct MailTypeRow: Equatable, Sendable, Identifiable {
    /// The mail type, which also identifies the row.
    public var mailType: TypeIdentity
    /// Totals since start or reset.
    public var posts, deliveries, pruned: UInt64
    /// Rates over the short window.
    public var postsPerSecond, deliveriesPerSecond: Double
    /// Live recipients.
    public var recipients: Int
    /// Handler run times.
    public var handlerLatency: LatencyDistribution
    /// Time from post to handler start, queued deliveries only.
    public var queueWait: LatencyDistribution
    /// Deliveries per second, oldest first.
    public var history: [Double]

    /// The row's identity: its mail type.
    public var id: TypeIdentity { mailType }
    /// The mail type's name.
    public var name: String { mailType.name }

    /// Creates a row.
    public init(
        mailType: TypeIdentity, posts: UInt64, deliveries: UInt64, pruned: UInt64, postsPerSecond: Double,
        deliveriesPerSecond: Double, recipients: Int, handlerLatency: LatencyDistribution,
        queueWait: LatencyDistribution, history: [Double]
    ) {
        self.mailType = mailType
        self.posts = posts
        self.deliveries = deliveries
        self.pruned = pruned
        self.postsPerSecond = postsPerSecond
        self.deliveriesPerSecond = deliveriesPerSecond
        self.recipients = recipients
        self.handlerLatency = handlerLatency
        self.queueWait = queueWait
        self.history = history
    }
}
