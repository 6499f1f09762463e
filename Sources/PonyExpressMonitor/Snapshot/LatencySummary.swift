import Histogram
import PonyExpress

/// Percentiles and a coarse distribution of a set of durations, in nanoseconds.
///
/// The monitor builds it from an HDR histogram that keeps two significant digits, so every percentile is within 1%
/// of the exact value.
public struct LatencySummary: Sendable, Codable, Hashable {
    /// How many durations were recorded.
    public let count: UInt64
    /// The median.
    public let p50: Nanoseconds
    /// The 90th percentile.
    public let p90: Nanoseconds
    /// The 99th percentile.
    public let p99: Nanoseconds
    /// The 99.9th percentile.
    public let p999: Nanoseconds
    /// The largest duration recorded.
    public let max: Nanoseconds
    /// Counts in log-scale buckets whose upper bounds are powers of two from 1 µs (1 µs, 2 µs, 4 µs, ...), up to the
    /// bucket holding ``max``; empty when nothing was recorded.
    public let buckets: [LatencyBucket]

    /// No durations.
    public static let empty = LatencySummary(count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, buckets: [])

    /// The upper bound of the first bucket: 1 µs.
    public static let firstBucketUpperBound: Nanoseconds = 1_000

    /// Creates a summary from its numbers.
    ///
    /// - Parameters:
    ///   - count: How many durations were recorded.
    ///   - p50: The median.
    ///   - p90: The 90th percentile.
    ///   - p99: The 99th percentile.
    ///   - p999: The 99.9th percentile.
    ///   - max: The largest duration.
    ///   - buckets: The distribution.
    public init(
        count: UInt64, p50: Nanoseconds, p90: Nanoseconds, p99: Nanoseconds, p999: Nanoseconds, max: Nanoseconds,
        buckets: [LatencyBucket]
    ) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
        self.buckets = buckets
    }

    /// Summarises durations the way the monitor does: recorded in the monitor's HDR histogram, then read back.
    package init(recording values: some Sequence<Nanoseconds>) {
        var histogram = LatencyHistogram.make()
        for value in values { LatencyHistogram.record(value, in: &histogram) }
        self.init(histogram)
    }

    /// Summarises a histogram of nanoseconds.
    package init(_ histogram: Histogram<UInt64>) {
        guard histogram.totalCount > 0 else {
            self = .empty
            return
        }
        let max = histogram.max
        var buckets: [LatencyBucket] = []
        var lowerBound: Nanoseconds = 0
        var upperBound = Self.firstBucketUpperBound
        while true {
            let count = histogram.count(within: lowerBound...Swift.max(lowerBound, upperBound))
            buckets.append(LatencyBucket(upperBound: upperBound, count: count))
            if upperBound >= max || upperBound > Nanoseconds.max / 4 { break }
            lowerBound = histogram.nextNonEquivalentForValue(upperBound)
            upperBound *= 2
        }
        self.init(
            count: histogram.totalCount, p50: histogram.valueAtPercentile(50), p90: histogram.valueAtPercentile(90),
            p99: histogram.valueAtPercentile(99), p999: histogram.valueAtPercentile(99.9), max: max,
            buckets: buckets)
    }
}
