import PonyExpress
import PonyExpressMonitor
import Testing

@Suite struct LatencySummaryTests {
    /// 1 µs, 2 µs, ... 1000 µs: every percentile is known exactly, and the histogram keeps 1%.
    private let summary = LatencySummary(recording: (1...1000).map { Nanoseconds($0) * 1_000 })

    private func expectClose(
        _ value: Nanoseconds, to exact: Nanoseconds, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let error = abs(Double(value) - Double(exact)) / Double(exact)
        #expect(error <= 0.01, "\(value) is not within 1% of \(exact)", sourceLocation: sourceLocation)
    }

    @Test func percentilesAreWithinOnePercentOfTheKnownValues() {
        #expect(summary.count == 1000)
        expectClose(summary.p50, to: 500_000)
        expectClose(summary.p90, to: 900_000)
        expectClose(summary.p99, to: 990_000)
        expectClose(summary.p999, to: 999_000)
        expectClose(summary.max, to: 1_000_000)
        #expect(summary.p50 <= summary.p90 && summary.p90 <= summary.p99 && summary.p99 <= summary.p999)
    }

    @Test func bucketsArePowersOfTwoFromOneMicrosecond() {
        #expect(summary.buckets.map(\.upperBound) == (0...10).map { 1_000 << $0 })
        // Bucket edges are exact to the histogram's 1% resolution: 257 µs is equivalent to 256 µs.
        let exact: [UInt64] = [1, 1, 2, 4, 8, 16, 32, 64, 128, 256, 488]
        for (bucket, expected) in zip(summary.buckets, exact) {
            #expect(bucket.count.distance(to: expected).magnitude <= expected / 100 + 1)
        }
        #expect(Array(summary.buckets.map(\.count).prefix(8)) == Array(exact.prefix(8)))
        #expect(summary.buckets.reduce(0) { $0 + $1.count } == 1000)
    }

    @Test func aSingleValueIsEveryPercentile() {
        let one = LatencySummary(recording: [250])
        #expect(one.count == 1)
        #expect([one.p50, one.p90, one.p99, one.p999, one.max] == [250, 250, 250, 250, 250])
        #expect(one.buckets == [LatencyBucket(upperBound: 1_000, count: 1)])
    }

    @Test func nothingRecordedIsEmpty() {
        #expect(LatencySummary(recording: []) == .empty)
        #expect(LatencySummary.empty.buckets.isEmpty)
    }

    @Test func valuesBeyondOneHundredSecondsAreCountedAtTheLimit() {
        let long = LatencySummary(recording: [500_000_000_000])
        #expect(long.count == 1)
        expectClose(long.max, to: 100_000_000_000)
    }
}
