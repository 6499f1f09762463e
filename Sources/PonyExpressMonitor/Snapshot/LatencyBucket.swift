import PonyExpress

/// One bar of a latency distribution: how many values fell at or below `upperBound` and above the previous bucket's.
public struct LatencyBucket: Sendable, Codable, Hashable {
    /// The largest value in this bucket, in nanoseconds.
    public let upperBound: Nanoseconds
    /// How many values fell in this bucket.
    public let count: UInt64

    /// Creates a bucket.
    ///
    /// - Parameters:
    ///   - upperBound: The largest value in the bucket, in nanoseconds.
    ///   - count: How many values fell in it.
    public init(upperBound: Nanoseconds, count: UInt64) {
        self.upperBound = upperBound
        self.count = count
    }
}
