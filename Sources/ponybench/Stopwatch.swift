import Dispatch

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
        var count = 64
        while true {
            let elapsed = time { operation(count) }
            if elapsed >= batchSeconds * 1e9 || count >= 1 << 30 { break }
            count = elapsed < 1e6 ? count * 8 : Int(Double(count) * batchSeconds * 1e9 / elapsed) + 1
        }
        var best = Double.infinity
        for _ in 0..<samples {
            best = min(best, time { operation(count) } / Double(count))
        }
        return best
    }

    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start)
    }
}
