import PonyExpress

/// One site row of the ``RecipientRegistry`` as a snapshot needs it, copied out under the registry's lock.
struct SiteRecord {
    /// The fewest seconds ``liveSeries`` reaches back: a minute, for ``SiteStats/growthLastMinute``. The longest
    /// window of the rules that are on may take it further (``MonitorSettings/trendSeconds``), and the history the
    /// monitor keeps does: a consumer's judge may judge any window up to it.
    static let minimumTrendSeconds = 60

    /// `nil` for the "other" row.
    let key: SiteKey?
    let lastRegistration: RecipientInfo?
    let live: Int
    let liveBlocks: Int
    let registered: UInt64
    let unregistered: UInt64
    let blocksUnregistered: UInt64
    let pruned: UInt64
    /// The first second the monitor watched the site.
    let firstSecond: Int64
    /// Live registrations at the end of each second from `current - kept - 1` to `current - 1`, where `kept` is the
    /// seconds the rings keep (`ringCapacity - 2`, at least ``MonitorSettings/trendSeconds``), oldest first; seconds
    /// before the site was first seen count 0.
    let liveSeries: [Int]
    /// Live blocks over the same seconds.
    let blockSeries: [Int]
    /// Live registrations at the end of each second of the history, oldest first.
    let history: [Double]
    let lifetimes: LifetimeSummary
    /// Prunes over the long rate window.
    let prunesInLongWindow: UInt64
    /// Prunes in each second of ``liveSeries``'s seconds, oldest first; empty for a site never pruned.
    let pruneSeries: [UInt64]

    init(_ row: SiteTally, current: Int64, historyStart: Int64, settings: MonitorSettings) {
        key = row.key
        lastRegistration = row.lastRegistration
        live = row.live
        liveBlocks = row.liveBlocks
        registered = row.registered
        unregistered = row.unregistered
        blocksUnregistered = row.blocksUnregistered
        pruned = row.pruned
        firstSecond = row.firstSecond
        // Over the whole kept history, not only the app's own rules' windows: a consumer's judge (a viewer's, a
        // replay's) may judge a longer leak window, up to the history, from these facts.
        let trendStart = current - Int64(settings.ringCapacity - 2) - 1
        liveSeries = row.liveSeries(from: trendStart, to: current, now: current, blocks: false)
        blockSeries = row.liveSeries(from: trendStart, to: current, now: current, blocks: true)
        history = row.liveSeries(from: historyStart, to: current, now: current, blocks: false).map { Double($0) }
        lifetimes = row.lifetimes.summary
        var prunes: UInt64 = 0
        for second in current - Int64(settings.longSeconds)..<current {
            prunes &+= row.seconds.value(lane: SiteTally.Lane.pruned, second: second)
        }
        prunesInLongWindow = prunes
        pruneSeries =
            row.pruned == 0
            ? [] : (trendStart..<current).map { row.seconds.value(lane: SiteTally.Lane.pruned, second: $0) }
    }

    /// Live registrations at the end of the second `secondsAgo` seconds before the current one (1 for the last
    /// completed second), at most the series' length.
    func live(secondsAgo: Int) -> Int {
        liveSeries[liveSeries.count - Swift.min(Swift.max(1, secondsAgo), liveSeries.count)]
    }
}
