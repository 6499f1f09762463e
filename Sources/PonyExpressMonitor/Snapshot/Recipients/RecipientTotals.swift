import PonyExpress

/// One recipient's deliveries merged over the shards.
struct RecipientTotals {
    var deliveries: UInt64 = 0
    /// The deliveries whose handler runs were timed.
    var timedDeliveries: UInt64 = 0
    var handlerTime: Nanoseconds = 0
    var maxHandlerTime: Nanoseconds = 0

    mutating func merge(_ traffic: RecipientTraffic) {
        deliveries &+= traffic.deliveries
        timedDeliveries &+= traffic.timedDeliveries
        handlerTime &+= traffic.estimatedHandlerTime
        maxHandlerTime = Swift.max(maxHandlerTime, traffic.maxHandlerTime)
    }

    mutating func merge(_ other: RecipientTotals) {
        deliveries &+= other.deliveries
        timedDeliveries &+= other.timedDeliveries
        handlerTime &+= other.handlerTime
        maxHandlerTime = Swift.max(maxHandlerTime, other.maxHandlerTime)
    }
}
