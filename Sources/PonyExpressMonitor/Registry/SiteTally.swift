import PonyExpress

/// The registrations of one source location, kept by the ``RecipientRegistry``.
struct SiteTally {
    /// The lanes of ``seconds``.
    enum Lane {
        static let added = 0
        static let removed = 1
        static let blocksAdded = 2
        static let blocksRemoved = 3
        static let pruned = 4
        static let count = 5
    }

    /// `nil` for the "other" row.
    var key: SiteKey?
    var site: SourceLocation? { key?.site }
    var mailType: TypeIdentity? { key?.mailType }
    /// The latest registration made at the site.
    var lastRegistration: RecipientInfo?
    /// How long its ended registrations lived.
    var lifetimes = LifetimeHistogram()
    var live = 0
    var liveBlocks = 0
    var registered: UInt64 = 0
    var unregistered: UInt64 = 0
    var blocksUnregistered: UInt64 = 0
    var pruned: UInt64 = 0
    /// The first second the monitor watched this site: windows that start earlier are not judged.
    var firstSecond: Int64
    var seconds: SecondRing

    init(key: SiteKey?, firstSecond: Int64, ringCapacity: Int) {
        self.key = key
        self.firstSecond = firstSecond
        seconds = SecondRing(capacity: ringCapacity, lanes: Lane.count)
    }

    mutating func add(isBlock: Bool, second: Int64) {
        live += 1
        registered &+= 1
        seconds.add(1, lane: Lane.added, second: second)
        if isBlock {
            liveBlocks += 1
            seconds.add(1, lane: Lane.blocksAdded, second: second)
        }
    }

    mutating func remove(isBlock: Bool, pruned wasPruned: Bool, lifetime: Nanoseconds, second: Int64) {
        live -= 1
        lifetimes.record(lifetime)
        seconds.add(1, lane: Lane.removed, second: second)
        if isBlock {
            liveBlocks -= 1
            seconds.add(1, lane: Lane.blocksRemoved, second: second)
        }
        if wasPruned {
            pruned &+= 1
            seconds.add(1, lane: Lane.pruned, second: second)
        } else {
            unregistered &+= 1
            if isBlock { blocksUnregistered &+= 1 }
        }
    }

    /// Counts the prune of a registration that was never live to the monitor.
    mutating func countPrune(lifetime: Nanoseconds, second: Int64) {
        pruned &+= 1
        lifetimes.record(lifetime)
        seconds.add(1, lane: Lane.pruned, second: second)
    }

    /// Live registrations at the end of `second`, worked out backwards from the count now.
    func live(atEndOf second: Int64, now current: Int64) -> Int {
        liveSeries(from: second, to: second + 1, now: current, blocks: false)[0]
    }

    /// Live registrations (or live blocks) at the end of each second of `start..<end`, worked out backwards from
    /// the count now.
    func liveSeries(from start: Int64, to end: Int64, now current: Int64, blocks: Bool) -> [Int] {
        let addedLane = blocks ? Lane.blocksAdded : Lane.added
        let removedLane = blocks ? Lane.blocksRemoved : Lane.removed
        var value = blocks ? liveBlocks : live
        var series = [Int](repeating: 0, count: Int(Swift.max(0, end - start)))
        var second = current
        while second >= start {
            if second < end { series[Int(second - start)] = value }
            value -= Int(seconds.value(lane: addedLane, second: second))
            value += Int(seconds.value(lane: removedLane, second: second))
            second -= 1
        }
        return series
    }

    /// Adds another row's counts to this one, when a site's row is given to a new site.
    mutating func absorb(_ other: SiteTally) {
        live += other.live
        liveBlocks += other.liveBlocks
        registered &+= other.registered
        unregistered &+= other.unregistered
        blocksUnregistered &+= other.blocksUnregistered
        pruned &+= other.pruned
        lifetimes.absorb(other.lifetimes)
        seconds.absorb(other.seconds)
    }

    /// Forgets the counts, keeping the live registrations.
    mutating func clearStatistics(second: Int64) {
        registered = 0
        unregistered = 0
        blocksUnregistered = 0
        pruned = 0
        lifetimes = LifetimeHistogram()
        firstSecond = second
        seconds.clear()
    }
}
