import Histogram
import PonyExpress

/// One shard's traffic for one posted mail type: counts, per-second counts and latency histograms.
final class TypeTraffic {
    /// The lanes of ``seconds``.
    enum Lane {
        static let posts = 0
        static let deliveries = 1
        static let skipped = 2
        static let count = 3
    }

    let mailType: TypeIdentity
    var posts: UInt64 = 0
    var deliveries: UInt64 = 0
    var skipped: UInt64 = 0
    var seconds: SecondRing
    /// Handler durations; made at the first delivery.
    var handler: Histogram<UInt64>?
    /// Queue waits; made at the first queued delivery.
    var wait: Histogram<UInt64>?

    init(mailType: TypeIdentity, ringCapacity: Int) {
        self.mailType = mailType
        seconds = SecondRing(capacity: ringCapacity, lanes: Lane.count)
    }

    @inline(__always)
    func recordDelivery(duration: Nanoseconds, wait queueWait: Nanoseconds?, second: Int64) {
        deliveries &+= 1
        seconds.add(1, lane: Lane.deliveries, second: second)
        if handler == nil { handler = LatencyHistogram.make() }
        LatencyHistogram.record(duration, in: &handler!)
        if let queueWait {
            if wait == nil { wait = LatencyHistogram.make() }
            LatencyHistogram.record(queueWait, in: &wait!)
        }
    }

    var estimatedBytes: Int {
        64 + seconds.estimatedBytes + (handler?.estimatedFootprintInBytes ?? 0) + (wait?.estimatedFootprintInBytes ?? 0)
    }
}
