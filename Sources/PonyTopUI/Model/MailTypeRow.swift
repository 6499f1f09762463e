import PonyExpress

/// One mail type as the mail types table shows it.
package struct MailTypeRow: Equatable, Sendable, Identifiable {
    /// The mail type, which also identifies the row.
    package var mailType: TypeIdentity
    /// Totals since start or reset.
    package var posts, deliveries, pruned: UInt64
    /// Rates over the short window.
    package var postsPerSecond, deliveriesPerSecond: Double
    /// Live recipients.
    package var recipients: Int
    /// Handler run times.
    package var handlerLatency: LatencyDistribution
    /// Time from post to handler start, queued deliveries only.
    package var queueWait: LatencyDistribution
    /// Deliveries per second, oldest first.
    package var history: [Double]

    /// The row's identity: its mail type.
    package var id: TypeIdentity { mailType }
    /// The mail type's name.
    package var name: String { mailType.name }

    /// Creates a row.
    package init(
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
