import PonyExpressMonitor

/// Latencies as ponytop draws them: percentiles and log-scale buckets.
package struct LatencyDistribution: Equatable, Sendable {
    /// One bucket: the latencies up to `upperBound` nanoseconds (and above the previous bucket's bound), as the
    /// monitor counts them.
    package typealias Bucket = LatencyBucket

    /// How many latencies were recorded.
    package var count: UInt64
    /// Percentiles and maximum, in nanoseconds.
    package var p50, p90, p99, max: UInt64
    /// Log-scale buckets, smallest bound first.
    package var buckets: [Bucket]

    /// Creates a distribution.
    package init(count: UInt64, p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64, buckets: [Bucket]) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
        self.buckets = buckets
    }

    /// No latencies.
    package static let empty = LatencyDistribution(count: 0, p50: 0, p90: 0, p99: 0, max: 0, buckets: [])
}
