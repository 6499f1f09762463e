import PonyExpress

/// Queued delivery on one dispatch queue, identified by its label.
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

    /// Creates queue statistics.
    ///
    /// - Parameters:
    ///   - label: The queue's label.
    ///   - deliveries: Handler runs.
    ///   - meanWait: The mean wait.
    ///   - maxWait: The longest wait.
    ///   - waitHistory: Mean wait per second, oldest first.
    public init(label: String, deliveries: UInt64, meanWait: Double, maxWait: Nanoseconds, waitHistory: [Double]) {
        self.label = label
        self.deliveries = deliveries
        self.meanWait = meanWait
        self.maxWait = maxWait
        self.waitHistory = waitHistory
    }
}
