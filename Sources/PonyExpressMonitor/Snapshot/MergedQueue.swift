import Histogram
import PonyExpress

/// One queue's deliveries merged over the shards.
struct MergedQueue {
    var deliveries: UInt64 = 0
    var waitSum: Double = 0
    var maxWait: Nanoseconds = 0
    var mailType: TypeIdentity?
    var deliveriesSeries: [UInt64]
    var waitSeries: [UInt64]

    init(span: Int) {
        deliveriesSeries = Array(repeating: 0, count: span)
        waitSeries = Array(repeating: 0, count: span)
    }

    mutating func merge(_ traffic: QueueTraffic, from first: Int64) {
        deliveries &+= traffic.deliveries
        waitSum += traffic.waitSum
        maxWait = Swift.max(maxWait, traffic.maxWait)
        mailType = mailType ?? traffic.lastMailType
        traffic.seconds.accumulate(lane: QueueTraffic.Lane.deliveries, from: first, into: &deliveriesSeries)
        traffic.seconds.accumulate(lane: QueueTraffic.Lane.waitSum, from: first, into: &waitSeries)
    }

    /// The mean wait of each second, `nil` where there was no delivery.
    var meanWaits: [Double?] {
        zip(deliveriesSeries, waitSeries).map { count, sum in count == 0 ? nil : Double(sum) / Double(count) }
    }
}
