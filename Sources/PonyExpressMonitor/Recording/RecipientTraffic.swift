import PonyExpress

/// One shard's deliveries to one recipient.
struct RecipientTraffic {
    var deliveries: UInt64 = 0
    var handlerTime: Nanoseconds = 0
    var maxHandlerTime: Nanoseconds = 0

    @inline(__always)
    mutating func record(duration: Nanoseconds) {
        deliveries &+= 1
        handlerTime &+= duration
        if duration > maxHandlerTime { maxHandlerTime = duration }
    }

}
