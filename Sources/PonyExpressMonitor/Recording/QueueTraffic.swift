import Histogram
import PonyExpress

/// One shard's queued deliveries on one queue: counts, waits, per-second waits and the mail types that waited.
struct QueueTraffic {
    enum Lane {
        static let deliveries = 0
        static let waitSum = 1
        /// Deliveries that waited longer than the stall bound.
        static let overBound = 2
        /// The longest wait of the second (kept with ``SecondRing/raise(_:lane:second:)``).
        static let maxWait = 3
        static let count = 4
    }

    /// One mail type's deliveries on the queue.
    struct TypeWaits {
        let mailType: TypeIdentity
        var deliveries: UInt64 = 0
        var waitSum: Double = 0
        var overBound: UInt64 = 0

        mutating func add(_ other: TypeWaits) {
            deliveries &+= other.deliveries
            waitSum += other.waitSum
            overBound &+= other.overBound
        }
    }

    var deliveries: UInt64 = 0
    var waitSum: Double = 0
    var maxWait: Nanoseconds = 0
    var seconds: SecondRing
    /// The waits, made on the first delivery.
    var histogram: Histogram<UInt64>?
    /// Deliveries by posted mail type.
    var types: [ObjectIdentifier: TypeWaits] = [:]

    init(ringCapacity: Int) {
        seconds = SecondRing(capacity: ringCapacity, lanes: Lane.count)
    }

    /// Counts one delivery that waited `wait`; `bound` is the wait above which it counts as over the stall bound.
    @inline(__always)
    mutating func record(wait: Nanoseconds, mailType: TypeIdentity, second: Int64, bound: Nanoseconds) {
        deliveries &+= 1
        waitSum += Double(wait)
        if wait > maxWait { maxWait = wait }
        let over: UInt64 = wait > bound ? 1 : 0
        seconds.add(1, lane: Lane.deliveries, second: second)
        seconds.add(wait, lane: Lane.waitSum, second: second)
        seconds.add(over, lane: Lane.overBound, second: second)
        seconds.raise(wait, lane: Lane.maxWait, second: second)
        if histogram == nil { histogram = LatencyHistogram.make() }
        LatencyHistogram.record(wait, in: &histogram!)
        let key = ObjectIdentifier(mailType.type)
        if types[key] == nil { types[key] = TypeWaits(mailType: mailType) }
        types[key]!.deliveries &+= 1
        types[key]!.waitSum += Double(wait)
        types[key]!.overBound &+= over
    }

    var estimatedBytes: Int {
        seconds.estimatedBytes + (histogram?.estimatedFootprintInBytes ?? 0)
            + types.capacity * (MemoryLayout<ObjectIdentifier>.stride + MemoryLayout<TypeWaits>.stride)
    }

    /// How many queue labels a shard tracks; deliveries on further queues are counted under ``otherLabel``.
    static let capacity = 64
    /// The label under which queues beyond ``capacity`` are counted.
    static let otherLabel = "(other queues)"
}
