/// Counts and rates over every mail type.
public struct TrafficTotals: Sendable, Codable, Hashable {
    /// Calls to `post`.
    public let posts: UInt64
    /// Handler runs.
    public let deliveries: UInt64
    /// Matched recipients that did not receive a post (sender mismatch, or unregistered during the post).
    public let skipped: UInt64
    /// Registrations pruned because their object or exact sender was released.
    public let pruned: UInt64
    /// Live recipients now.
    public let recipientsAlive: Int
    /// Posts per second over the short window.
    public let postsPerSecond: Double
    /// Deliveries per second over the short window.
    public let deliveriesPerSecond: Double
    /// Prunes per second over the short window.
    public let prunesPerSecond: Double
    /// Posts in each of the last completed seconds, oldest first.
    public let postsHistory: [Double]
    /// Deliveries in each of the last completed seconds, oldest first.
    public let deliveriesHistory: [Double]
    /// Prunes in each of the last completed seconds, oldest first.
    public let prunesHistory: [Double]

    /// Creates traffic totals.
    ///
    /// - Parameters:
    ///   - posts: Calls to `post`.
    ///   - deliveries: Handler runs.
    ///   - skipped: Skipped recipients.
    ///   - pruned: Pruned registrations.
    ///   - recipientsAlive: Live recipients.
    ///   - postsPerSecond: Posts per second, short window.
    ///   - deliveriesPerSecond: Deliveries per second, short window.
    ///   - prunesPerSecond: Prunes per second, short window.
    ///   - postsHistory: Posts per second, oldest first.
    ///   - deliveriesHistory: Deliveries per second, oldest first.
    ///   - prunesHistory: Prunes per second, oldest first.
    public init(
        posts: UInt64, deliveries: UInt64, skipped: UInt64, pruned: UInt64, recipientsAlive: Int,
        postsPerSecond: Double, deliveriesPerSecond: Double, prunesPerSecond: Double, postsHistory: [Double],
        deliveriesHistory: [Double], prunesHistory: [Double]
    ) {
        self.posts = posts
        self.deliveries = deliveries
        self.skipped = skipped
        self.pruned = pruned
        self.recipientsAlive = recipientsAlive
        self.postsPerSecond = postsPerSecond
        self.deliveriesPerSecond = deliveriesPerSecond
        self.prunesPerSecond = prunesPerSecond
        self.postsHistory = postsHistory
        self.deliveriesHistory = deliveriesHistory
        self.prunesHistory = prunesHistory
    }
}
