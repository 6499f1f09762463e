import Histogram
import PonyExpress

/// One queue's deliveries merged over the shards.
struct MergedQueue {
    var deliveries: UInt64 = 0
    var waitSum: Double = 0
    var maxWait: Nanoseconds = 0
    var deliveriesSeries: [UInt64]
    var waitSeries: [UInt64]
    var overBoundSeries: [UInt64]
    var maxWaitSeries: [UInt64]
    var histogram: Histogram<UInt64>?
    var types: [ObjectIdentifier: QueueTraffic.TypeWaits] = [:]

    init(span: Int) {
        deliveriesSeries = Array(repeating: 0, count: span)
        waitSeries = deliveriesSeries
        overBoundSeries = deliveriesSeries
        maxWaitSeries = deliveriesSeries
    }

    mutating func merge(_ traffic: QueueTraffic, from first: Int64) {
        deliveries &+= traffic.deliveries
        waitSum += traffic.waitSum
        maxWait = Swift.max(maxWait, traffic.maxWait)
        traffic.seconds.accumulate(lane: QueueTraffic.Lane.deliveries, from: first, into: &deliveriesSeries)
        traffic.seconds.accumulate(lane: QueueTraffic.Lane.waitSum, from: first, into: &waitSeries)
        traffic.seconds.accumulate(lane: QueueTraffic.Lane.overBound, from: first, into: &overBoundSeries)
        traffic.seconds.raise(lane: QueueTraffic.Lane.maxWait, from: first, into: &maxWaitSeries)
        if let other = traffic.histogram {
            if histogram == nil { histogram = LatencyHistogram.make() }
            histogram!.add(other)
        }
        for (key, waits) in traffic.types {
            types[key, default: QueueTraffic.TypeWaits(mailType: waits.mailType)].add(waits)
        }
    }

    /// The mean wait of each second, `nil` where there was no delivery.
    var meanWaits: [Double?] { Self.meanWaits(deliveries: deliveriesSeries, waits: waitSeries) }

    /// The mean wait of each second of a series of deliveries and their summed waits, `nil` where there was none.
    static func meanWaits(deliveries: [UInt64], waits: [UInt64]) -> [Double?] {
        zip(deliveries, waits).map { count, sum in count == 0 ? nil : Double(sum) / Double(count) }
    }

    /// The mail type with the most deliveries on the queue.
    var busiestMailType: TypeIdentity? {
        types.values.max { ($0.deliveries, $1.mailType.name) < ($1.deliveries, $0.mailType.name) }?.mailType
    }
}
