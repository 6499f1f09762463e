import PonyExpress

/// One shard's deliveries to one recipient of one posted mail type.
struct RecipientTraffic {
    var deliveries: UInt64 = 0
    var handlerTime: Nanoseconds = 0
    var maxHandlerTime: Nanoseconds = 0
    /// The shard's type slot of the posted mail type counted here: the first one the recipient received on this
    /// shard. Mail of other types (subclasses of its registered type) is counted in ``ShardState/otherTypes``.
    var slot: Int32 = -1

    @inline(__always)
    mutating func record(duration: Nanoseconds) {
        deliveries &+= 1
        handlerTime &+= duration
        if duration > maxHandlerTime { maxHandlerTime = duration }
    }
}
