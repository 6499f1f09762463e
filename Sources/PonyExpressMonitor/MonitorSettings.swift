import PonyExpress

/// The windows, capacities and thresholds of a ``PostOfficeMonitor``.
///
/// Every value has a default meant for a real app; tests lower the thresholds to trigger findings with small
/// scenarios.
///
/// ```swift
/// var settings = MonitorSettings()
/// settings.oversubscriptionThreshold = 10
/// let monitor = PostOfficeMonitor(settings: settings)
/// ```
///
/// The monitor clamps out-of-range values to the nearest valid one; call ``validate()`` to reject them instead.
public struct MonitorSettings: Sendable, Hashable {
    /// A mail type with more live recipients than this is reported as ``Finding/Kind/oversubscribed``.
    public var oversubscriptionThreshold: Int = 100
    /// The short rate window, in seconds (whole seconds, at least 1).
    public var shortWindow: Double = 1
    /// The long rate window, in seconds (whole seconds, at least 1).
    public var longWindow: Double = 10
    /// How many per-second samples the sparkline histories keep.
    public var historyLength: Int = 60
    /// How many recent prunes the prune log keeps.
    public var pruneLogCapacity: Int = 100
    /// How many registration sites get a row of their own; the rest share the "other" row (site `nil`).
    public var siteCapacity: Int = 256
    /// How many mail types get statistics of their own; mail of further types is counted under ``OtherMailTypes``.
    public var mailTypeCapacity: Int = 256

    /// The window, in seconds, over which growing registrations, accumulating blocks and rising queue waits are
    /// judged. A site or queue is judged only once the monitor has watched it for this long.
    public var leakWindow: Double = 10
    /// How many more live registrations a site must have at the end of ``leakWindow`` than at its start to be
    /// reported as ``Finding/Kind/growingRegistrations`` or ``Finding/Kind/accumulatingBlocks``.
    public var leakMinimumGrowth: Int = 20
    /// The share of the seconds of ``leakWindow`` in which a site's live registrations must rise for
    /// ``Finding/Kind/growingRegistrations``: steady growth, not one burst at start-up.
    public var leakGrowingShare: Double = 0.6
    /// In how many distinct seconds of ``leakWindow`` a site's never-unregistered blocks must grow for
    /// ``Finding/Kind/accumulatingBlocks``.
    public var blockGrowthSeconds: Int = 3
    /// Prunes per second from one site, over the long window, above which it is reported as
    /// ``Finding/Kind/highPruneRate``.
    public var pruneRateThreshold: Double = 10
    /// The share of its mail type's handler time above which a recipient is reported as
    /// ``Finding/Kind/slowRecipient``. Each recipient's single longest run is left out of the shares and means, so
    /// that one run the system preempted decides nothing.
    public var slowRecipientShare: Double = 0.8
    /// The mean handler time, in nanoseconds, below which no recipient is reported as slow.
    public var slowRecipientMinimumMean: Nanoseconds = 100_000
    /// How many deliveries a recipient needs before it can be reported as slow.
    public var slowRecipientMinimumDeliveries: Int = 10
    /// For ``Finding/Kind/risingQueueWait``: the share of pairs of seconds with deliveries in ``leakWindow`` in which
    /// the later second's mean wait is the longer (0.5 for a steady wait, 1 for one that rises every second).
    public var risingWaitShare: Double = 0.7
    /// How many times its early mean wait a queue's late mean wait must be (medians of the first and of the last
    /// three seconds with deliveries in ``leakWindow``).
    public var risingWaitFactor: Double = 1.5
    /// The late mean wait, in nanoseconds, below which no queue is reported: a wait that rises from 0.1 ms to 1 ms is
    /// noise on a busy machine, not a delay anyone feels.
    public var risingWaitMinimum: Nanoseconds = 50_000_000
    /// The wait from post to handler start, in seconds, above which a queue stalls: a queue whose deliveries wait
    /// longer than this at the 99th percentile has stalled.
    public var stalledQueueWait: Double = 0.25
    /// How many lock-striped shards the hot path spreads its counters over, or 0 for twice the number of active
    /// processors (at most 16).
    public var shards: Int = 0

    /// Creates the default settings.
    public init() {}

    /// Checks every value and throws the first that is out of range.
    ///
    /// - Throws: ``MonitorSettingsError`` naming the setting, its value and what is valid.
    public func validate() throws(MonitorSettingsError) {
        func require(
            _ valid: Bool, _ name: String, _ value: some CustomStringConvertible, _ expected: String
        )
            throws(MonitorSettingsError)
        {
            if !valid { throw MonitorSettingsError(setting: name, value: value.description, expected: expected) }
        }
        try require(oversubscriptionThreshold >= 1, "oversubscriptionThreshold", oversubscriptionThreshold, "≥ 1")
        try require(shortWindow.isFinite && shortWindow >= 1, "shortWindow", shortWindow, "seconds ≥ 1")
        try require(longWindow.isFinite && longWindow >= 1, "longWindow", longWindow, "seconds ≥ 1")
        try require((1...3600).contains(historyLength), "historyLength", historyLength, "1...3600")
        try require((1...100_000).contains(pruneLogCapacity), "pruneLogCapacity", pruneLogCapacity, "1...100000")
        try require((1...100_000).contains(siteCapacity), "siteCapacity", siteCapacity, "1...100000")
        try require((1...100_000).contains(mailTypeCapacity), "mailTypeCapacity", mailTypeCapacity, "1...100000")
        try require(leakWindow.isFinite && leakWindow >= 2, "leakWindow", leakWindow, "seconds ≥ 2")
        try require(leakMinimumGrowth >= 1, "leakMinimumGrowth", leakMinimumGrowth, "≥ 1")
        try require((0...1).contains(leakGrowingShare), "leakGrowingShare", leakGrowingShare, "0...1")
        try require(blockGrowthSeconds >= 1, "blockGrowthSeconds", blockGrowthSeconds, "≥ 1")
        try require(pruneRateThreshold > 0, "pruneRateThreshold", pruneRateThreshold, "> 0")
        try require(
            slowRecipientShare > 0 && slowRecipientShare <= 1, "slowRecipientShare", slowRecipientShare, "0 < x ≤ 1")
        try require(
            slowRecipientMinimumDeliveries >= 1, "slowRecipientMinimumDeliveries", slowRecipientMinimumDeliveries,
            "≥ 1")
        try require((0...1).contains(risingWaitShare), "risingWaitShare", risingWaitShare, "0...1")
        try require(risingWaitFactor >= 1, "risingWaitFactor", risingWaitFactor, "≥ 1")
        try require(
            stalledQueueWait.isFinite && stalledQueueWait > 0 && stalledQueueWait <= 100, "stalledQueueWait",
            stalledQueueWait, "seconds, 0 < x ≤ 100")
        try require((0...64).contains(shards), "shards", shards, "0...64 (0 for automatic)")
    }
}

extension MonitorSettings {
    /// These settings with every value moved into its valid range.
    func clamped() -> MonitorSettings {
        func seconds(_ value: Double, minimum: Double) -> Double {
            value.isFinite ? Swift.min(3600, Swift.max(minimum, value.rounded())) : minimum
        }
        func share(_ value: Double) -> Double { value.isFinite ? Swift.min(1, Swift.max(0, value)) : 1 }
        var settings = self
        settings.oversubscriptionThreshold = Swift.max(1, oversubscriptionThreshold)
        settings.shortWindow = seconds(shortWindow, minimum: 1)
        settings.longWindow = seconds(longWindow, minimum: 1)
        settings.historyLength = Swift.min(3600, Swift.max(1, historyLength))
        settings.pruneLogCapacity = Swift.min(100_000, Swift.max(1, pruneLogCapacity))
        settings.siteCapacity = Swift.min(100_000, Swift.max(1, siteCapacity))
        settings.mailTypeCapacity = Swift.min(100_000, Swift.max(1, mailTypeCapacity))
        settings.leakWindow = seconds(leakWindow, minimum: 2)
        settings.leakMinimumGrowth = Swift.max(1, leakMinimumGrowth)
        settings.leakGrowingShare = share(leakGrowingShare)
        settings.blockGrowthSeconds = Swift.max(1, blockGrowthSeconds)
        settings.pruneRateThreshold =
            pruneRateThreshold.isFinite && pruneRateThreshold > 0 ? pruneRateThreshold : 10
        settings.slowRecipientShare = slowRecipientShare > 0 ? share(slowRecipientShare) : 0.8
        settings.slowRecipientMinimumDeliveries = Swift.max(1, slowRecipientMinimumDeliveries)
        settings.risingWaitShare = share(risingWaitShare)
        settings.risingWaitFactor = risingWaitFactor.isFinite ? Swift.max(1, risingWaitFactor) : 1.5
        settings.stalledQueueWait =
            stalledQueueWait.isFinite && stalledQueueWait > 0 ? Swift.min(100, stalledQueueWait) : 0.25
        settings.shards = Swift.min(64, Swift.max(0, shards))
        return settings
    }

    /// The whole seconds of the short, long and leak windows.
    var shortSeconds: Int { Int(shortWindow) }
    var longSeconds: Int { Int(longWindow) }
    var leakSeconds: Int { Int(leakWindow) }

    /// How many seconds the per-second rings keep: enough for the history and every window, plus the second under
    /// way and the one before the leak window.
    var ringCapacity: Int {
        Swift.max(historyLength, shortSeconds, longSeconds, leakSeconds, SiteRecord.trendSeconds) + 2
    }
}
