/// Latencies as ponytop draws them: percentiles and log-scale buckets.
public struct LatencyDistribution: Equatable, Sendable {
    /// One bucket: the latencies up to `upperBound` nanoseconds (and above the previous bucket's bound).
    public struct Bucket: Equatable, Sendable {
        /// The bucket's upper bound in nanoseconds.
        public var upperBound: UInt64
        /// How many latencies fell in it.
        public var count: UInt64

        /// Creates a bucket.
        public init(upperBound: UInt64, count: UInt64) {
            self.upperBound = upperBound
            self.count = count
        }
    }

    /// How many latencies were recorded.
    public var count: UInt64
    /// Percentiles and maximum, in nanoseconds.
    public var p50, p90, p99, max: UInt64
    /// Log-scale buckets, smallest bound first.
    public var buckets: [Bucket]

    /// Creates a distribution.
    public init(count: UInt64, p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64, buckets: [Bucket]) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
        self.buckets = buckets
    }

    /// No latencies.
    public static let empty = LatencyDistribution(count: 0, p50: 0, p90: 0, p99: 0, max: 0, buckets: [])
}
