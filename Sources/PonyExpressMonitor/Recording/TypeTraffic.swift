import PonyExpress

/// One shard's traffic for one posted mail type: counts and per-second counts. Its latency histograms live in the
/// shard's ``ShardState/histograms``, by index.
struct TypeTraffic {
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
    /// Posts that a `NotificationCenter` bridge made (`PostOrigin.bridged`), counted in ``posts`` too.
    var bridged: UInt64 = 0
    var seconds: SecondRing
    /// The index of the handler-duration histogram, made at the first delivery; -1 before.
    var handlerHistogram = -1
    /// The index of the queue-wait histogram, made at the first queued delivery; -1 before.
    var waitHistogram = -1

    init(mailType: TypeIdentity, ringCapacity: Int) {
        self.mailType = mailType
        seconds = SecondRing(capacity: ringCapacity, lanes: Lane.count)
    }

    var estimatedBytes: Int { seconds.estimatedBytes }
}
