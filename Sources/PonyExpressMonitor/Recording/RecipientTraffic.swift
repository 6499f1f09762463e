import PonyExpress

/// One shard's deliveries to one recipient of one posted mail type: every delivery counted, and the handler times of
/// the timed ones (see ``MonitorSettings/handlerTimingInterval``).
struct RecipientTraffic {
    var deliveries: UInt64 = 0
    /// The deliveries whose handler times ``handlerTime`` adds up.
    var timedDeliveries: UInt64 = 0
    var handlerTime: Nanoseconds = 0
    var maxHandlerTime: Nanoseconds = 0
    /// The shard's type slot of the posted mail type counted here: the first one the recipient received on this
    /// shard. Mail of other types (subclasses of its registered type) is counted in ``ShardState/otherTypes``.
    var slot: Int32 = -1
    /// The registry's row of the recipient's registration site, whose ``RunProfile`` its timed runs go to on this
    /// shard; -1 if the registry did not know it. (It fills what would be padding: the entry stays 40 bytes.)
    var site: Int32 = -1

    /// Counts a delivery, and its handler time when it was timed.
    @inline(__always)
    mutating func record(duration: Nanoseconds?) {
        deliveries &+= 1
        guard let duration else { return }
        timedDeliveries &+= 1
        handlerTime &+= duration
        if duration > maxHandlerTime { maxHandlerTime = duration }
    }

    /// Counts `runs` untimed deliveries.
    @inline(__always)
    mutating func recordUntimed(_ runs: UInt64) {
        deliveries &+= runs
    }

    /// The handler time of all the deliveries, estimated from the timed ones: the longest timed run counts once, as
    /// it was seen, and the mean of the others stands for every other delivery.
    ///
    /// One run the system preempted is then one run in the estimate, as it would be with every run timed, not one
    /// in ``MonitorSettings/handlerTimingInterval`` of them; the slow-recipient rule leaves it out, as it always did.
    var estimatedHandlerTime: Nanoseconds {
        if timedDeliveries == deliveries || timedDeliveries == 0 { return handlerTime }
        guard timedDeliveries > 1 else { return handlerTime &* deliveries }
        let others = Double(handlerTime &- maxHandlerTime) / Double(timedDeliveries - 1)
        return maxHandlerTime &+ Nanoseconds((others * Double(deliveries - 1)).rounded())
    }
}
