import PonyExpress
import PonyExpressMonitor

/// One mail type as the mail types table shows it.
package struct MailTypeRow: Equatable, Sendable, Identifiable, Keyed {
    /// The mail type, which also identifies the row.
    package var mailType: TypeIdentity
    /// Totals since start or reset.
    package var posts, deliveries, pruned: UInt64
    /// Of ``posts``, those a `NotificationCenter` bridge made from notifications.
    package var bridgedPosts: UInt64
    /// Rates over the short window.
    package var postsPerSecond, deliveriesPerSecond: Double
    /// Live recipients registered for this very type.
    package var ownRecipients: Int
    /// Live recipients registered for one of its superclasses, which receive this mail too.
    package var inheritedRecipients: Int
    /// Handler run times.
    package var handlerLatency: LatencyDistribution
    /// Time from post to handler start, queued deliveries only.
    package var queueWait: LatencyDistribution
    /// Deliveries per second, oldest first.
    package var history: [Double]
    /// Its superclasses among the mail types the monitor knows, nearest first: their recipients receive this mail.
    package var superclasses: [TypeIdentity]
    /// What a relay did with this type, `nil` when it is not shared with other processes.
    package var relay: RelayFigures?

    /// Every live recipient that receives this mail: its own and its superclasses'.
    package var recipients: Int { ownRecipients + inheritedRecipients }

    /// The row's identity: its mail type.
    package var id: TypeIdentity { mailType }
    /// The mail type's name.
    package var name: String { mailType.name }
    /// Whether a `NotificationCenter` bridge posts this type: its name is marked in the table.
    package var isBridged: Bool { bridgedPosts > 0 }
    /// The row's key in selections and frozen orders.
    package var key: String { mailType.qualifiedName }

    /// Creates a row.
    package init(
        mailType: TypeIdentity, posts: UInt64 = 0, deliveries: UInt64 = 0, pruned: UInt64 = 0,
        postsPerSecond: Double = 0, deliveriesPerSecond: Double = 0, recipients: Int = 0, inheritedRecipients: Int = 0,
        handlerLatency: LatencyDistribution = .empty, queueWait: LatencyDistribution = .empty,
        history: [Double] = [], superclasses: [TypeIdentity] = [], bridgedPosts: UInt64 = 0
    ) {
        self.mailType = mailType
        self.posts = posts
        self.bridgedPosts = bridgedPosts
        self.deliveries = deliveries
        self.pruned = pruned
        self.postsPerSecond = postsPerSecond
        self.deliveriesPerSecond = deliveriesPerSecond
        ownRecipients = recipients
        self.inheritedRecipients = inheritedRecipients
        self.handlerLatency = handlerLatency
        self.queueWait = queueWait
        self.history = history
        self.superclasses = superclasses
    }
}
