import PonyExpress

/// Queued delivery on one dispatch queue, identified by its label.
///
/// The monitor sees a queued delivery when its handler returns, with the time it was posted and the time it
/// started: waits, backlog and load come from deliveries that ran. A handler that never returns holds its queue
/// without a trace here.
public struct QueueStats: Sendable, Codable, Hashable {
    /// The queue's label.
    public let label: String
    /// Handler runs on this queue.
    public let deliveries: UInt64
    /// The mean wait from post to handler start, in nanoseconds.
    public let meanWait: Double
    /// The longest wait from post to handler start, in nanoseconds.
    public let maxWait: Nanoseconds
    /// The mean wait in each of the last completed seconds that had deliveries, oldest first, in nanoseconds.
    public let waitHistory: [Double]
    /// The distribution of its waits since the monitor was attached or reset.
    public let wait: LatencySummary
    /// Deliveries per second over the short window.
    public let deliveriesPerSecond: Double
    /// How many deliveries were waiting on the queue, on average, over the short window: the waits of the
    /// deliveries that started in it, summed and divided by its length (Little's law).
    public let estimatedBacklog: Double
    /// The longest wait of a delivery that started in the last completed seconds of the long window, in nanoseconds.
    public let recentMaxWait: Nanoseconds
    /// The share of deliveries in the last completed seconds of the long window that waited longer than the stall
    /// bound (``MonitorSettings/stalledQueueWait``), 0...1.
    public let recentShareOverBound: Double
    /// The posted mail types delivered on it, most waits over the stall bound first, then most deliveries.
    public let mailTypes: [QueueMailType]
    /// What keeps it busy: its live recipients grouped by registration site, most handler time first.
    public let load: [QueueLoad]

    /// Creates queue statistics.
    ///
    /// - Parameters:
    ///   - label: The queue's label.
    ///   - deliveries: Handler runs.
    ///   - meanWait: The mean wait.
    ///   - maxWait: The longest wait.
    ///   - waitHistory: Mean wait per second, oldest first.
    ///   - wait: The distribution of waits.
    ///   - deliveriesPerSecond: Deliveries per second.
    ///   - estimatedBacklog: The mean number of deliveries waiting.
    ///   - recentMaxWait: The longest recent wait.
    ///   - recentShareOverBound: The recent share of waits over the stall bound.
    ///   - mailTypes: The mail types delivered on it.
    ///   - load: Its live recipients by site.
    public init(
        label: String, deliveries: UInt64, meanWait: Double, maxWait: Nanoseconds, waitHistory: [Double],
        wait: LatencySummary = .empty, deliveriesPerSecond: Double = 0, estimatedBacklog: Double = 0,
        recentMaxWait: Nanoseconds = 0, recentShareOverBound: Double = 0, mailTypes: [QueueMailType] = [],
        load: [QueueLoad] = []
    ) {
        self.label = label
        self.deliveries = deliveries
        self.meanWait = meanWait
        self.maxWait = maxWait
        self.waitHistory = waitHistory
        self.wait = wait
        self.deliveriesPerSecond = deliveriesPerSecond
        self.estimatedBacklog = estimatedBacklog
        self.recentMaxWait = recentMaxWait
        self.recentShareOverBound = recentShareOverBound
        self.mailTypes = mailTypes
        self.load = load
    }
}
