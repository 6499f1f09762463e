import PonyExpress

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long ended registrations lived, in buckets a quarter of a doubling wide (each bound about 19% above the
/// last), from 1 ms to about 12 days: O(1) to record, 1.6 KB whatever the count.
struct LifetimeHistogram {
    /// Bucket 0 holds lifetimes under 1 ms; bucket `i` ≥ 1 those from 2^((i - 1) / 4) ms up to 2^(i / 4) ms.
    static let bucketCount = 122
    private var counts = [UInt64](repeating: 0, count: bucketCount)
    /// Lifetimes recorded.
    private(set) var count: UInt64 = 0

    /// Records one lifetime.
    mutating func record(_ lifetime: Nanoseconds) {
        counts[Self.bucket(of: lifetime)] &+= 1
        count &+= 1
    }

    /// The bucket a lifetime falls in.
    static func bucket(of lifetime: Nanoseconds) -> Int {
        let milliseconds = Double(lifetime) / 1e6
        guard milliseconds >= 1 else { return 0 }
        return Swift.min(bucketCount - 1, 1 + Int((4 * log2(milliseconds)).rounded(.down)))
    }

    /// The upper bound of a bucket, in nanoseconds.
    static func upperBound(of bucket: Int) -> Nanoseconds {
        Nanoseconds((1e6 * exp2(Double(bucket) / 4)).rounded())
    }

    /// The lifetime under which a share `quantile` (0...1) of the recorded ones fall, as the upper bound of its
    /// bucket (at most 19% above the true value), or `nil` if none was recorded.
    func value(atQuantile quantile: Double) -> Nanoseconds? {
        guard count > 0 else { return nil }
        let rank = Swift.max(1, UInt64((quantile * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (bucket, bucketCount) in counts.enumerated() {
            seen &+= bucketCount
            if seen >= rank { return Self.upperBound(of: bucket) }
        }
        return Self.upperBound(of: Self.bucketCount - 1)
    }

    /// Adds another histogram's counts.
    mutating func absorb(_ other: LifetimeHistogram) {
        for index in counts.indices { counts[index] &+= other.counts[index] }
        count &+= other.count
    }

    /// The summary a snapshot shows.
    var summary: LifetimeSummary {
        LifetimeSummary(ended: count, median: value(atQuantile: 0.5), p90: value(atQuantile: 0.9))
    }

    var estimatedBytes: Int { counts.capacity * MemoryLayout<UInt64>.stride }
}
