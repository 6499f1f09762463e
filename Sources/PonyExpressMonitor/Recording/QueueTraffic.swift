import PonyExpress

/// One shard's queued deliveries on one queue: counts, waits and per-second waits.
struct QueueTraffic {
    enum Lane {
        static let deliveries = 0
        static let waitSum = 1
        static let count = 2
    }

    var deliveries: UInt64 = 0
    var waitSum: Double = 0
    var maxWait: Nanoseconds = 0
    var seconds: SecondRing
    /// The mail type of the latest delivery on this queue.
    var lastMailType: TypeIdentity?

    init(ringCapacity: Int) {
        seconds = SecondRing(capacity: ringCapacity, lanes: Lane.count)
    }

    @inline(__always)
    mutating func record(wait: Nanoseconds, mailType: TypeIdentity, second: Int64) {
        deliveries &+= 1
        lastMailType = mailType
        waitSum += Double(wait)
        if wait > maxWait { maxWait = wait }
        seconds.add(1, lane: Lane.deliveries, second: second)
        seconds.add(wait, lane: Lane.waitSum, second: second)
    }

    var estimatedBytes: Int { seconds.estimatedBytes }

    /// How many queue labels a shard tracks; deliveries on further queues are counted under ``otherLabel``.
    static let capacity = 64
    /// The label under which queues beyond ``capacity`` are counted.
    static let otherLabel = "(other queues)"
}
