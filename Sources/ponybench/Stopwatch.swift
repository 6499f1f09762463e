import Dispatch
import PonyExpress

/// Times an operation: grows the batch until one batch takes long enough to time well, then keeps the fastest of
/// several batches, which is the run least disturbed by the rest of the machine.
enum Stopwatch {
    /// - Parameters:
    ///   - batchSeconds: The least time one timed batch should take.
    ///   - samples: How many batches to time.
    ///   - operation: Runs the operation `count` times.
    /// - Returns: Nanoseconds per operation.
    static func nanosecondsPerOperation(
        batchSeconds: Double, samples: Int, _ operation: (_ count: Int) -> Void
    ) -> Double {
        let count = calibratedCount(batchSeconds: batchSeconds, operation)
        var best = Double.infinity
        for _ in 0..<samples {
            best = min(best, time { operation(count) } / Double(count))
        }
        return best
    }

    /// Times two operations in alternating batches, so that both see the same machine: what one run of the process
    /// did before (threads it started, memory it spread) and what else runs meanwhile weigh on both alike.
    ///
    /// - Returns: Nanoseconds per operation of each, the fastest of `samples` batches.
    static func nanosecondsPerOperation(
        batchSeconds: Double, samples: Int, alternating first: (_ count: Int) -> Void,
        with second: (_ count: Int) -> Void
    ) -> (first: Double, second: Double) {
        let firstCount = calibratedCount(batchSeconds: batchSeconds, first)
        let secondCount = calibratedCount(batchSeconds: batchSeconds, second)
        var best = (first: Double.infinity, second: Double.infinity)
        for _ in 0..<samples {
            best.first = min(best.first, time { first(firstCount) } / Double(firstCount))
            best.second = min(best.second, time { second(secondCount) } / Double(secondCount))
        }
        return best
    }

    /// How many operations one batch runs: grown until a batch takes at least `batchSeconds`.
    private static func calibratedCount(batchSeconds: Double, _ operation: (_ count: Int) -> Void) -> Int {
        var count = 64
        while true {
            let elapsed = time { operation(count) }
            if elapsed >= batchSeconds * 1e9 || count >= 1 << 30 { return count }
            count = elapsed < 1e6 ? count * 8 : Int(Double(count) * batchSeconds * 1e9 / elapsed) + 1
        }
    }

    /// Times each of `count` operations on its own, for a distribution rather than a best batch: what one call
    /// costs the calling thread, outliers included.
    ///
    /// - Parameters:
    ///   - count: How many operations to time.
    ///   - before: Runs before each operation, untimed.
    ///   - operation: The operation, given its index.
    /// - Returns: The median and the 99th percentile, in nanoseconds.
    static func eachOperation(
        _ count: Int, before: () -> Void = {}, _ operation: (Int) -> Void
    ) -> (median: Double, p99: Double) {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for n in 0..<count {
            before()
            let start = MonotonicClock.now()
            operation(n)
            samples.append(MonotonicClock.now() - start)
        }
        samples.sort()
        return (Double(samples[samples.count / 2]), Double(samples[samples.count * 99 / 100]))
    }

    static func time(_ body: () -> Void) -> Double {
        let start = MonotonicClock.now()
        body()
        return Double(MonotonicClock.now() - start)
    }
}
