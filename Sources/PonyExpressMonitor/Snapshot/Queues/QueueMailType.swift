import PonyExpress

/// One posted mail type's deliveries on one queue, and how long they waited.
public struct QueueMailType: Sendable, Codable, Hashable {
    /// The posted mail type.
    public let mailType: TypeIdentity
    /// Its deliveries on the queue.
    public let deliveries: UInt64
    /// Their mean wait from post to handler start, in nanoseconds.
    public let meanWait: Double
    /// How many of them waited longer than the stall bound (``MonitorSettings/stalledQueueWait``).
    public let waitsOverBound: UInt64

    /// Creates a queue's figures for one mail type.
    ///
    /// - Parameters:
    ///   - mailType: The posted mail type.
    ///   - deliveries: Its deliveries on the queue.
    ///   - meanWait: Their mean wait.
    ///   - waitsOverBound: How many waited longer than the stall bound.
    public init(mailType: TypeIdentity, deliveries: UInt64, meanWait: Double, waitsOverBound: UInt64) {
        self.mailType = mailType
        self.deliveries = deliveries
        self.meanWait = meanWait
        self.waitsOverBound = waitsOverBound
    }
}
