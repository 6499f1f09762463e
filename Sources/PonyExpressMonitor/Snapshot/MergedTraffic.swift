import Histogram
import PonyExpress

/// One mail type's traffic merged over the shards.
struct MergedTraffic {
    var posts: UInt64 = 0
    var deliveries: UInt64 = 0
    var skipped: UInt64 = 0
    var bridged: UInt64 = 0
    /// Per second, for the seconds `first..<current`.
    var postsSeries: [UInt64]
    var deliveriesSeries: [UInt64]
    var handler: Histogram<UInt64>?
    var wait: Histogram<UInt64>?

    init(span: Int) {
        postsSeries = Array(repeating: 0, count: span)
        deliveriesSeries = Array(repeating: 0, count: span)
    }

    mutating func merge(
        _ traffic: TypeTraffic, handler handlerHistogram: Histogram<UInt64>?, wait waitHistogram: Histogram<UInt64>?,
        from first: Int64
    ) {
        posts &+= traffic.posts
        deliveries &+= traffic.deliveries
        skipped &+= traffic.skipped
        bridged &+= traffic.bridged
        traffic.seconds.accumulate(lane: TypeTraffic.Lane.posts, from: first, into: &postsSeries)
        traffic.seconds.accumulate(lane: TypeTraffic.Lane.deliveries, from: first, into: &deliveriesSeries)
        if let other = handlerHistogram {
            if handler == nil { handler = LatencyHistogram.make() }
            handler!.add(other)
        }
        if let other = waitHistogram {
            if wait == nil { wait = LatencyHistogram.make() }
            wait!.add(other)
        }
    }
}
