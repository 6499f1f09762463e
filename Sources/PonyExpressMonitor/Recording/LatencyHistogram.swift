import Histogram
import PonyExpress

/// How the monitor makes its HDR histograms of nanoseconds: two significant digits (1% precision) from 1 ns to
/// ``highestTrackable``; longer values are recorded as ``highestTrackable``.
enum LatencyHistogram {
    /// 100 seconds.
    static let highestTrackable: Nanoseconds = 100_000_000_000

    static func make() -> Histogram<UInt64> {
        Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: highestTrackable, numberOfSignificantValueDigits: .two)
    }

    @inline(__always)
    static func record(_ value: Nanoseconds, in histogram: inout Histogram<UInt64>) {
        histogram.record(Swift.min(value, highestTrackable))
    }
}
