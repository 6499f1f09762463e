import Histogram
import PonyExpress

/// What one shard of the ``ShardTable`` counts. Plain values, so that the hot path updates them in place without reference
/// counting: the shard keeps it behind a pointer and its lock.
struct ShardState {
    /// Index into ``types`` by posted type; types beyond the capacity all share the ``OtherMailTypes`` entry.
    var typeSlots: [ObjectIdentifier: Int] = [:]
    /// Traffic by distinct (admitted) mail type.
    var types: ContiguousArray<TypeTraffic> = []
    /// The type looked up last and its slot: consecutive posts are usually of one type.
    var lastType: ObjectIdentifier?
    var lastSlot = 0
    /// Deliveries by recipient, for recipients the registry knows.
    var recipients = RecipientTable()
    /// Deliveries to recipients of posted types other than the one their ``recipients`` entry counts, by raw
    /// recipient id and type slot: subclass mail to a recipient registered for a superclass.
    var otherTypes: [UInt64: [Int32: RecipientTraffic]] = [:]
    /// Queued deliveries by queue label.
    var queues: [String: QueueTraffic] = [:]
    /// The latency histograms of ``types``, made on first use.
    var histograms: ContiguousArray<Histogram<UInt64>> = []
    /// The timed runs of each registration site, by the registry's row index, made on first use: what the
    /// slow-recipient rule judges a site's typical run by.
    var siteRuns: [RunProfile] = []
    /// The second this shard's last post fell in, and where it begins and ends on the monitor's clock, from the
    /// origin it was counted from: consecutive posts are almost always in one second, which then costs two
    /// comparisons instead of a 64-bit division.
    var lastSecond: (origin: UInt64, start: Nanoseconds, end: Nanoseconds, second: Int64) = (0, 0, 0, 0)

    /// The second since `origin` that `time` falls in; times before it count as second 0.
    @inline(__always)
    mutating func second(at time: Nanoseconds, origin: UInt64) -> Int64 {
        if time >= lastSecond.start, time < lastSecond.end, lastSecond.origin == origin { return lastSecond.second }
        guard time >= origin else { return 0 }
        let second = Int64((time &- origin) / 1_000_000_000)
        let start = origin &+ UInt64(second) &* 1_000_000_000
        lastSecond = (origin, start, start &+ 1_000_000_000, second)
        return second
    }

    /// Counts a delivery of the type in `slot`, delivered as an event: a queued one, or one that reached the monitor
    /// outside a batch. `duration` is `nil` for an untimed run.
    @inline(__always)
    mutating func recordDelivery(slot: Int, duration: Nanoseconds?, wait: Nanoseconds?, second: Int64) {
        countDeliveries(1, slot: slot, second: second)
        if let duration { recordHandlerTime(duration, slot: slot) }
        if let wait { record(wait, in: \.waitHistogram, slot: slot) }
    }

    /// Counts `count` deliveries of the type in `slot` that ended in `second`. Their handler times are recorded one
    /// by one with ``recordHandlerTime(_:slot:)``.
    @inline(__always)
    mutating func countDeliveries(_ count: UInt64, slot: Int, second: Int64) {
        types.withUnsafeMutableBufferPointer { types in
            types[slot].deliveries &+= count
            types[slot].seconds.add(count, lane: TypeTraffic.Lane.deliveries, second: second)
        }
    }

    /// Records how long a handler of the type in `slot` ran.
    @inline(__always)
    mutating func recordHandlerTime(_ duration: Nanoseconds, slot: Int) {
        record(duration, in: \.handlerHistogram, slot: slot)
    }

    /// Counts a post or a skip of the type in `slot`: its total and its second.
    @inline(__always)
    mutating func count(_ total: WritableKeyPath<TypeTraffic, UInt64>, lane: Int, slot: Int, second: Int64) {
        types.withUnsafeMutableBufferPointer { types in
            types[slot][keyPath: total] &+= 1
            types[slot].seconds.add(1, lane: lane, second: second)
        }
    }

    /// Counts `posts` posts of the type in `slot` and the `deliveries` of their untimed handler runs, all in
    /// `second`: the usual post, or a thread's repeats of it, in one access to the type's counters.
    @inline(__always)
    mutating func countPosts(_ posts: UInt64, deliveries: UInt64, slot: Int, second: Int64) {
        types.withUnsafeMutableBufferPointer { types in
            types[slot].posts &+= posts
            types[slot].deliveries &+= deliveries
            types[slot].seconds.add(
                posts, lane: TypeTraffic.Lane.posts, deliveries, lane: TypeTraffic.Lane.deliveries, second: second)
        }
    }

    /// Counts a post of the type in `slot` that a bridge made; ``count(_:lane:slot:second:)`` counted it as a post.
    @inline(__always)
    mutating func countBridged(slot: Int) {
        types.withUnsafeMutableBufferPointer { $0[slot].bridged &+= 1 }
    }

    /// Counts a handler run for a recipient on this shard, with its handler time if it was timed (`duration` is
    /// `nil` if not); returns `false` if the shard has no entry for it yet.
    @inline(__always)
    mutating func recordRun(for recipient: RecipientId, slot: Int, duration: Nanoseconds?) -> Bool {
        switch recipients.record(recipient, slot: slot, duration: duration) {
        case .recorded(let site):
            if let duration { recordSiteRun(duration, site: site) }
            return true
        case .otherType(let site):
            recordOtherType(for: recipient, slot: slot) { $0.record(duration: duration) }
            if let duration { recordSiteRun(duration, site: site) }
            return true
        case .absent: return false
        }
    }

    /// Adds a timed run to its site's ``RunProfile``; a run of a site the registry did not know (-1) goes nowhere.
    @inline(__always)
    mutating func recordSiteRun(_ duration: Nanoseconds, site: Int32) {
        guard site >= 0 else { return }
        let index = Int(site)
        if index >= siteRuns.count {
            siteRuns.append(contentsOf: repeatElement(RunProfile(), count: index + 1 - siteRuns.count))
        }
        siteRuns[index].record(duration)
    }

    /// Forgets the runs of the site in row `index`: the registry gave the row to another site.
    mutating func clearSiteRuns(_ index: Int) {
        if siteRuns.indices.contains(index) { siteRuns[index] = RunProfile() }
    }

    /// Counts `runs` untimed runs for a recipient on this shard; returns `false` if the shard has no entry for it yet.
    mutating func recordUntimedRuns(_ runs: UInt64, for recipient: RecipientId, slot: Int) -> Bool {
        switch recipients.recordUntimed(runs, for: recipient, slot: slot) {
        case .recorded: return true
        case .otherType:
            recordOtherType(for: recipient, slot: slot) { $0.recordUntimed(runs) }
            return true
        case .absent: return false
        }
    }

    /// Counts a run of a recipient for a posted type other than the one its entry counts.
    @inline(never)
    private mutating func recordOtherType(
        for recipient: RecipientId, slot: Int, _ record: (inout RecipientTraffic) -> Void
    ) {
        let slot = Int32(truncatingIfNeeded: slot)
        record(&otherTypes[recipient.rawValue, default: [:]][slot, default: RecipientTraffic(slot: slot)])
    }

    /// Forgets a recipient's counters.
    mutating func removeRecipient(_ id: RecipientId) {
        recipients.remove(id)
        if !otherTypes.isEmpty { otherTypes[id.rawValue] = nil }
    }

    /// Records `value` in one of the type's histograms, made on first use.
    @inline(__always)
    private mutating func record(_ value: Nanoseconds, in histogram: WritableKeyPath<TypeTraffic, Int>, slot: Int) {
        var index = types[slot][keyPath: histogram]
        if index < 0 {
            index = makeHistogram()
            types[slot][keyPath: histogram] = index
        }
        histograms.withUnsafeMutableBufferPointer { histograms in
            _ = histograms[index].record(Swift.min(value, LatencyHistogram.highestTrackable))
        }
    }

    private mutating func makeHistogram() -> Int {
        histograms.append(LatencyHistogram.make())
        return histograms.count - 1
    }

    /// The histogram at `index`, or `nil` for -1.
    func histogram(_ index: Int) -> Histogram<UInt64>? {
        index < 0 ? nil : histograms[index]
    }

    /// The bytes it takes.
    var estimatedBytes: Int { estimatedParts.reduce(MemoryLayout<Self>.stride) { $0 + $1.bytes } }

    /// The bytes it takes, by what they hold: per mail type (counts and rings), per recipient, per queue, the
    /// histograms of handler times and waits, and the run profiles of sites.
    var estimatedParts: [(part: String, bytes: Int)] {
        let typeBytes =
            typeSlots.capacity * (MemoryLayout<ObjectIdentifier>.stride + MemoryLayout<Int>.stride)
            + types.capacity * MemoryLayout<TypeTraffic>.stride + types.reduce(0) { $0 + $1.estimatedBytes }
        let recipientBytes =
            recipients.estimatedBytes
            + otherTypes.capacity * (MemoryLayout<UInt64>.stride + MemoryLayout<[Int32: RecipientTraffic]>.stride)
            + otherTypes.values.reduce(0) {
                $0 + $1.capacity * (MemoryLayout<Int32>.stride + MemoryLayout<RecipientTraffic>.stride)
            }
        let queueBytes =
            queues.capacity * (MemoryLayout<String>.stride + MemoryLayout<QueueTraffic>.stride)
            + queues.values.reduce(0) { $0 + $1.estimatedBytes }
        let histogramBytes = histograms.reduce(0) { $0 + $1.estimatedFootprintInBytes }
        let siteBytes = siteRuns.reduce(0) { $0 + $1.estimatedBytes }
        return [
            ("mail types' counts and rings", typeBytes), ("recipients' counts", recipientBytes),
            ("queues' counts, rings and histograms", queueBytes),
            ("mail types' handler and wait histograms", histogramBytes), ("sites' run profiles", siteBytes),
        ]
    }
}
