import PonyExpress

/// The parameters of the built-in rules as typed properties: each reads and writes the parameter of the same
/// meaning, so that `settings.oversubscriptionThreshold` and `settings[OversubscribedRule.threshold]` are one value.
extension MonitorSettings {
    /// A mail type with more live recipients than this is reported as ``Finding/Kind/oversubscribed``
    /// (`oversubscribed.threshold`).
    public var oversubscriptionThreshold: Int {
        get { Int(self[OversubscribedRule.threshold]) }
        set { self[OversubscribedRule.threshold] = Double(newValue) }
    }

    /// The longest window, in seconds, over which a site's growth is judged for ``Finding/Kind/growingRegistrations``
    /// (`growingRegistrations.window`): a leak as slow as ``leakMinimumGrowth`` registrations in this long is found.
    public var leakWindow: Double {
        get { self[GrowingRegistrationsRule.window] }
        set { self[GrowingRegistrationsRule.window] = newValue }
    }

    /// How many registrations a site must gain, and keep alive, within one window to be reported as
    /// ``Finding/Kind/growingRegistrations`` (`growingRegistrations.minimumGrowth`).
    public var leakMinimumGrowth: Int {
        get { Int(self[GrowingRegistrationsRule.minimumGrowth]) }
        set { self[GrowingRegistrationsRule.minimumGrowth] = Double(newValue) }
    }

    /// Prunes per second from one site, over the long window, from which it is reported as
    /// ``Finding/Kind/highPruneRate`` (`highPruneRate.threshold`).
    public var pruneRateThreshold: Double {
        get { self[HighPruneRateRule.threshold] }
        set { self[HighPruneRateRule.threshold] = newValue }
    }

    /// The share of its mail type's handler time from which a recipient is reported as ``Finding/Kind/slowRecipient``
    /// (`slowRecipient.share`).
    public var slowRecipientShare: Double {
        get { self[SlowRecipientRule.share] }
        set { self[SlowRecipientRule.share] = newValue }
    }

    /// The mean handler time, in nanoseconds, below which no recipient is reported as slow
    /// (`slowRecipient.minimumMean`, in seconds).
    public var slowRecipientMinimumMean: Nanoseconds {
        get { Nanoseconds((self[SlowRecipientRule.minimumMean] * 1e9).rounded()) }
        set { self[SlowRecipientRule.minimumMean] = Double(newValue) / 1e9 }
    }

    /// How many deliveries a recipient needs before it can be reported as slow (`slowRecipient.minimumDeliveries`).
    public var slowRecipientMinimumDeliveries: Int {
        get { Int(self[SlowRecipientRule.minimumDeliveries]) }
        set { self[SlowRecipientRule.minimumDeliveries] = Double(newValue) }
    }

    /// The share of a site's longest timed runs left out of its mean before it is judged slow
    /// (`slowRecipient.longestLeftOut`): where the runs the system preempted land.
    public var slowRecipientLongestLeftOut: Double {
        get { self[SlowRecipientRule.longestLeftOut] }
        set { self[SlowRecipientRule.longestLeftOut] = newValue }
    }

    /// The window, in seconds, over which a queue's wait must keep rising for ``Finding/Kind/risingQueueWait``
    /// (`risingQueueWait.window`).
    public var risingWaitWindow: Double {
        get { self[RisingQueueWaitRule.window] }
        set { self[RisingQueueWaitRule.window] = newValue }
    }

    /// For ``Finding/Kind/risingQueueWait``: the share of pairs of seconds with deliveries in its window in which the
    /// later second's mean wait is the longer (`risingQueueWait.share`).
    public var risingWaitShare: Double {
        get { self[RisingQueueWaitRule.share] }
        set { self[RisingQueueWaitRule.share] = newValue }
    }

    /// How many times its early mean wait a queue's late mean wait must be (`risingQueueWait.factor`).
    public var risingWaitFactor: Double {
        get { self[RisingQueueWaitRule.factor] }
        set { self[RisingQueueWaitRule.factor] = newValue }
    }

    /// The late mean wait, in nanoseconds, below which no queue is reported as rising (`risingQueueWait.minimum`, in
    /// seconds).
    public var risingWaitMinimum: Nanoseconds {
        get { Nanoseconds((self[RisingQueueWaitRule.minimum] * 1e9).rounded()) }
        set { self[RisingQueueWaitRule.minimum] = Double(newValue) / 1e9 }
    }

    /// How much, in nanoseconds, a queue's late mean wait must exceed its early one to be reported as rising when it
    /// is not ``risingWaitFactor`` times it (`risingQueueWait.rise`, in seconds): a wait that grows by the same amount
    /// every second grows by a smaller factor every second, and stays reported by its rise.
    public var risingWaitRise: Nanoseconds {
        get { Nanoseconds((self[RisingQueueWaitRule.rise] * 1e9).rounded()) }
        set { self[RisingQueueWaitRule.rise] = Double(newValue) / 1e9 }
    }

    /// The wait from post to handler start, in seconds, above which a queue stalls (`stalledQueue.wait`): a queue
    /// whose deliveries wait longer than this at the 99th percentile is reported as ``Finding/Kind/stalledQueue``.
    public var stalledQueueWait: Double {
        get { self[StalledQueueRule.wait] }
        set { self[StalledQueueRule.wait] = newValue }
    }
}
