import Dispatch
import PonyExpress
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches a `PostOffice` through its delivery tap and turns what it sees into statistics, latency percentiles and
/// findings about leaks, over-subscription and slow recipients.
///
/// ```swift
/// let office = PostOffice()
/// let monitor = PostOfficeMonitor()
/// monitor.attach(to: office)
/// // ... the app registers and posts ...
/// let snapshot = monitor.snapshot()
/// for finding in snapshot.findings {
///     print(finding.kind, finding.mailType, finding.explanation)
/// }
/// monitor.detach()
/// ```
///
/// Attach it with ``attach(to:)``, which also seeds its table of live recipients; a monitor attached with
/// `PostOffice.attach(_:)` alone ignores every event.
///
/// ## Cost
/// The monitor is called inside every `post`, on the posting thread. It counts every post and delivery, and has
/// handler times sampled: each thread times one post in ``MonitorSettings/handlerTimingInterval`` (32), and every
/// post after a slow one or a quiet spell (``timingInterval``), so an untimed post reads only the coarse clock and
/// none after its handlers. Percentiles, means and maxima come from the timed posts; a recipient's handler time
/// is its timed runs' mean times its deliveries. It is a `DeliveryBatchTap`: it takes a post and
/// the runs of its synchronous handlers in one call, when the post's last synchronous handler returned, and counts
/// them under one lock; queued deliveries, skips and the rest arrive one event at a time. Each event and each run
/// costs O(1): the counters and histograms are spread over shards picked by a hash of the current thread, each
/// behind a spin-then-yield lock of its own, so posting threads rarely wait for one another, and are merged only
/// when a snapshot is taken. An untimed post to one recipient that repeats an earlier one of its thread's second
/// (same mail type, same recipient, up to four such pairs) takes no lock at all: its thread counts it with a plain
/// load and store, and the next holder of the shard's lock adds it to the counters (`RepeatedPosts`), so counts stay
/// exact. Registrations, unregistrations and prunes go to a separate table behind its own lock.
///
/// ## Time
/// Rates come from per-second buckets on the monitor's ``MonitorClock``. With the ``SystemClock`` the buckets are
/// chosen by the timestamps the events carry; with any other clock, such as a ``ManualClock`` in a test, by reading
/// the clock when the event arrives. Seconds count from ``attach(to:)`` or ``reset()``, and rates and histories
/// use completed seconds only.
///
/// ## Memory
/// Bounded whatever the run length: fixed-size histograms (two significant digits, up to 100 s) and per-second
/// rings, a prune log of ``MonitorSettings/pruneLogCapacity`` records, at most ``MonitorSettings/siteCapacity``
/// sites and ``MonitorSettings/mailTypeCapacity`` mail types, and per-recipient counters only for live recipients.
/// ``estimatedMemoryBytes`` adds it up.
public final class PostOfficeMonitor: DeliveryBatchTap {
    /// The settings in use, with out-of-range values clamped to the nearest valid value.
    public let settings: MonitorSettings
    private let clock: any MonitorClock
    /// Whether events can be bucketed by their own timestamps: true for the ``SystemClock``.
    private let usesEventTime: Bool
    let shards: ShardTable
    let ringCapacity: Int
    let registry: Locked<RecipientRegistry>
    /// Held while a snapshot takes its ``RegistryView``, which makes the registry's order outside the registry's lock:
    /// one snapshot at a time makes it.
    let takingViews = Locked(())
    /// Mail types given statistics of their own, up to the capacity.
    private let admittedTypes = Locked<[ObjectIdentifier: TypeIdentity]>([:])
    /// The clock time of the start of second 0: attach or reset.
    let origin: Atomic<UInt64>
    private let isAttached = Atomic<Bool>(false)
    let office = Locked<WeakOffice>(WeakOffice())
    /// The clock time of the last snapshot that checked registrations for released recipients; see
    /// ``pruneReleased(at:)``.
    let lastPruneCheck = Atomic<UInt64>(0)
    /// Which class mail types are subclasses of which.
    let typeRelations = Locked(TypeRelations())
    /// The wait above which a queued delivery counts toward a stalled queue.
    let stallBound: Nanoseconds
    /// The monitor's own judge, with its settings' rules: the one ``snapshot()`` uses. Each other consumer keeps its
    /// own (``makeJudge(overriding:)``).
    public let judge: FindingJudge
    /// When each finding was first seen by any of the monitor's judges.
    let sightings = SightingLedger()
    /// The relay whose figures snapshots carry, if any.
    let relaySource = Locked<WeakRelay>(WeakRelay())

    /// Creates a monitor; it sees nothing until ``attach(to:)``.
    ///
    /// - Parameters:
    ///   - settings: Windows, capacities and thresholds. Out-of-range values are clamped; see
    ///     ``MonitorSettings/validate()``.
    ///   - clock: The clock for rates and snapshot times. Pass a ``ManualClock`` to drive time by hand in tests.
    public init(settings: MonitorSettings = MonitorSettings(), clock: any MonitorClock = SystemClock()) {
        let settings = settings.clamped()
        self.settings = settings
        self.clock = clock
        usesEventTime = clock is SystemClock
        var shardCount = settings.shards
        if shardCount == 0 {
            shardCount = Swift.min(16, 2 * Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        }
        shards = ShardTable(minimum: shardCount)
        ringCapacity = settings.ringCapacity
        stallBound = Nanoseconds((settings.stalledQueueWait * 1e9).rounded())
        judge = FindingJudge(settings: settings, ledger: sightings)
        let start = clock.now()
        var table = RecipientRegistry(settings: settings, ringCapacity: ringCapacity)
        table.origin = start
        registry = Locked(table)
        origin = Atomic(start)
    }

    // MARK: - Attaching

    /// Starts watching `office`: attaches the monitor as a tap and seeds the live recipient table from
    /// `PostOffice.recipients()`.
    ///
    /// Statistics start from zero. Attaching while attached to another office detaches from it first.
    ///
    /// - Parameter office: The post office to watch.
    public func attach(to office: PostOffice) {
        detach()
        self.office.withLock { $0.office = office }
        clearTraffic()
        registry.withLock { registry in
            registry = RecipientRegistry(settings: settings, ringCapacity: ringCapacity)
            registry.beginSeeding()
        }
        judge.forget()
        sightings.removeAll()
        let start = clock.now()
        origin.store(start, ordering: .releasing)
        registry.withLock { $0.origin = start }
        isAttached.store(true, ordering: .releasing)
        office.attach(self)
        let infos = office.recipients()
        let now = clock.now()
        let second = second(at: now)
        let usesEventTime = usesEventTime
        registry.withLock {
            $0.finishSeeding(with: infos, second: second) { usesEventTime ? $0.registeredAt : now }
        }
    }

    /// Stops watching: detaches from the post office. No event is counted after this returns, including events of
    /// posts that were already under way. The statistics are kept until the next ``attach(to:)``.
    public func detach() {
        isAttached.store(false, ordering: .releasing)
        let office = office.withLock { state in
            defer { state.office = nil }
            return state.office
        }
        office?.detach(self)
    }

    /// Whether the monitor is attached and counting.
    public var isWatching: Bool { isAttached.load(ordering: .acquiring) }

    /// Clears every count, rate, histogram and prune record and the monitor's own judge's findings, and restarts the
    /// seconds; the table of live recipients is kept. It clears them for every consumer: the app's call to make, never
    /// a viewer's (an attached viewer's reset is its own judge's ``FindingJudge/reset()``).
    public func reset() {
        clearTraffic()
        let start = clock.now()
        origin.store(start, ordering: .releasing)
        registry.withLock {
            $0.origin = start
            $0.clearStatistics(second: 0)
        }
        judge.forget()
        sightings.removeAll()
    }

    private func clearTraffic() {
        for shard in shards.all {
            shard.withLock { state in
                shard.repeats.pointee.discardUnabsorbed()
                state.pointee = ShardState()
            }
        }
    }

    /// The monitor's own memory in bytes, estimated from the sizes of its tables, rings and histograms.
    public var estimatedMemoryBytes: Int {
        var bytes = 256 + registry.withLock { $0.estimatedBytes }
        for shard in shards.all { bytes += shard.withLock { $0.pointee.estimatedBytes } }
        return bytes
    }

    /// How many lock-striped shards the hot path records into: ``MonitorSettings/shards``, or twice the cores (at
    /// most 16), rounded up to a power of two.
    package var shardCount: Int { shards.count }

    /// ``estimatedMemoryBytes`` by what it holds, the shards' parts summed over the shards: what `ponybench
    /// retention` prints.
    package var estimatedMemoryParts: [(part: String, bytes: Int)] {
        var parts: [(part: String, bytes: Int)] = [("registry (live registrations, sites, prune log)", 0)]
        parts[0].bytes = registry.withLock { $0.estimatedBytes }
        for shard in shards.all {
            for (index, part) in shard.withLock({ $0.pointee.estimatedParts }).enumerated() {
                if parts.count <= index + 1 { parts.append((part.part, 0)) }
                parts[index + 1].bytes += part.bytes
            }
        }
        return parts
    }

    // MARK: - The tap

    /// How many posts one timed post stands for: ``MonitorSettings/handlerTimingInterval``. Every post and delivery
    /// is counted; handler times come from the timed posts (see `DeliveryTap.timingInterval` in PonyExpress).
    public var timingInterval: Int { settings.handlerTimingInterval }

    /// Counts one event. Called by the post office inside `post` for everything but a post and its synchronous
    /// handler runs, which come in batches; see the type's discussion for its cost.
    ///
    /// - Parameter event: What happened.
    public func receive(_ event: TapEvent) {
        guard isAttached.load(ordering: .relaxed) else { return }
        switch event {
        case .posted(let posting):
            count(
                \.posts, lane: TypeTraffic.Lane.posts, of: posting.mailType, second: second(ofEventAt: posting.time),
                bridged: posting.origin == .bridged)
        case .delivered(let delivery):
            record(delivery)
            if delivery.isReplay { registry.withLock { $0.countReplay(to: delivery.recipient) } }
        case .skipped(let skip):
            count(\.skipped, lane: TypeTraffic.Lane.skipped, of: skip.mailType, second: second(at: clock.now()))
        case .registered(let info):
            let time = usesEventTime ? info.registeredAt : clock.now()
            let second = second(at: time)
            let reused = registry.withLock {
                $0.register(info, time: time, second: second)
                return $0.takeReusedRows()
            }
            forgetRuns(ofRows: reused)
        case .unregistered(let unregistration):
            remove(unregistration.id, prune: nil, at: unregistration.time)
        case .pruned(let prune):
            remove(prune.recipient.id, prune: prune, at: prune.time)
        case .scopeEnded(let end):
            let time = now()
            registry.withLock { $0.scopes.record(end, at: time) }
        }
    }

    /// Counts one handler run in this thread's shard: its type's totals, second and histograms, its recipient's
    /// totals and, for queued delivery, its queue's.
    @inline(__always)
    private func record(_ delivery: borrowing Delivery) {
        let second = second(ofEventAt: delivery.isTimed ? delivery.finishedAt : delivery.postedAt)
        // The mail type's latency is the handler's whole run; the recipient's handler time is its own work, without
        // the posts it made, whose recipients count that time themselves.
        let duration = delivery.isTimed ? delivery.duration : nil
        let selfDuration = delivery.isTimed ? delivery.selfDuration : nil
        let wait = delivery.queueLabel == nil ? nil : delivery.wait
        let shard = shards.current()
        shard.lock()
        let state = shard.state
        let slot = typeSlot(delivery.mailType, in: state)
        state.pointee.recordDelivery(slot: slot, duration: duration, wait: wait, second: second)
        if !state.pointee.recordRun(for: delivery.recipient, slot: slot, duration: selfDuration) {
            recordFirstDelivery(to: delivery.recipient, slot: slot, duration: selfDuration, in: state)
        }
        if let label = delivery.queueLabel, let wait {
            recordQueued(on: label, wait: wait, mailType: delivery.mailType, second: second, in: state)
        }
        shard.unlock()
    }

    /// Counts a post and the runs of its synchronous handlers, taking this thread's shard once for all of them.
    /// Called by the post office when the post's last synchronous handler returned.
    ///
    /// - Parameter batch: The post and its handler runs.
    public func receive(_ batch: borrowing DeliveryBatch) {
        guard isAttached.load(ordering: .relaxed) else { return }
        // With a clock of its own (a test's), the monitor reads it once for the batch.
        let now = usesEventTime ? 0 : clock.now()
        let postTime = usesEventTime ? batch.posting.time : now
        let thread = ShardTable.currentThread()
        let shard = shards[of: thread]
        let typeKey = ObjectIdentifier(batch.posting.mailType.type)
        // An untimed post to one recipient that repeats an earlier one of this thread's second is counted without
        // the lock.
        let mayRepeat =
            batch.count == 1 && batch.completesPost && !batch[0].isTimed && batch.posting.origin != .bridged
        if mayRepeat,
            shard.repeats.pointee.countIfRepeat(
                thread: thread, mailTypeKey: UInt(bitPattern: typeKey), recipient: batch[0].recipient.rawValue,
                time: postTime, origin: origin.load(ordering: .relaxed))
        {
            return
        }
        shard.lock()
        let state = shard.state
        let slot = typeSlot(batch.posting.mailType, key: typeKey, in: state)
        let postSecond = state.pointee.second(at: postTime, origin: origin.load(ordering: .relaxed))
        if batch.completesPost, batch.posting.origin == .bridged { state.pointee.countBridged(slot: slot) }
        // Runs of a post the taps left untimed carry no times: they count in the post's second, and only their
        // number is recorded; with the post itself, most often.
        guard batch.count > 0, batch[0].isTimed else {
            if batch.completesPost {
                state.pointee.countPosts(1, deliveries: UInt64(batch.count), slot: slot, second: postSecond)
            } else {
                state.pointee.countDeliveries(UInt64(batch.count), slot: slot, second: postSecond)
            }
            // A few runs are counted one by one; more, in one pass over the recipient table.
            if batch.count < 4 {
                for index in 0..<batch.count { recordUntimedRun(to: batch[index].recipient, slot: slot, in: state) }
            } else {
                let missed = state.pointee.recipients.recordUntimed(count: batch.count, slot: slot) {
                    batch[$0].recipient
                }
                for index in missed { recordUntimedRun(to: batch[index].recipient, slot: slot, in: state) }
            }
            if mayRepeat {
                expectRepeats(
                    of: batch.posting.mailType, key: typeKey, to: batch[0].recipient, at: postTime, in: shard,
                    thread: thread)
            }
            return shard.unlock()
        }
        if batch.completesPost {
            state.pointee.count(\.posts, lane: TypeTraffic.Lane.posts, slot: slot, second: postSecond)
        }
        // The runs of one post almost always end within one second: they are counted per second in one step.
        var second: Int64 = -1
        var secondEnds: Nanoseconds = 0
        var inSecond: UInt64 = 0
        for index in 0..<batch.count {
            let run = batch[index]
            let finished = usesEventTime ? run.finishedAt : now
            if finished >= secondEnds {
                if inSecond > 0 { state.pointee.countDeliveries(inSecond, slot: slot, second: second) }
                second = self.second(at: finished)
                secondEnds = origin.load(ordering: .relaxed) &+ UInt64(second + 1) &* 1_000_000_000
                inSecond = 0
            }
            inSecond &+= 1
            state.pointee.recordHandlerTime(run.duration, slot: slot)
            // The recipient's handler time is its own work (see record(_:)).
            if !state.pointee.recordRun(for: run.recipient, slot: slot, duration: run.selfDuration) {
                recordFirstDelivery(to: run.recipient, slot: slot, duration: run.selfDuration, in: state)
            }
        }
        if inSecond > 0 { state.pointee.countDeliveries(inSecond, slot: slot, second: second) }
        shard.unlock()
    }

    /// Makes this thread's next posts of `mailType` to `recipient` in the second of `time` count as repeats. Call
    /// with the shard's lock held.
    private func expectRepeats(
        of mailType: TypeIdentity, key: ObjectIdentifier, to recipient: RecipientId, at time: Nanoseconds,
        in shard: ShardTable.Shard, thread: UInt64
    ) {
        let repeats = shard.repeats
        guard repeats.pointee.claim(for: thread) else { return }
        // The second the post was counted in, as the shard's state cached it; a time before the origin has none.
        let second = shard.state.pointee.lastSecond
        guard time >= second.start, time < second.end, second.origin == origin.load(ordering: .relaxed) else { return }
        if !repeats.pointee.counts(in: second) {
            absorbRepeats(of: shard)
            repeats.pointee.start(second)
        }
        guard let index = repeats.pointee.freePair() else { return }
        repeats.pointee.set(
            index, mailType: mailType, mailTypeKey: UInt(bitPattern: key), recipient: recipient.rawValue)
    }

    /// Adds the repeats a thread counted without the shard's lock (``RepeatedPosts``) to the shard's counters,
    /// exactly as if each had been counted with it. Call with the shard's lock held.
    private func absorbRepeats(of shard: ShardTable.Shard) {
        for index in 0..<RepeatedPosts.capacity {
            guard let (runs, mailType, recipient) = shard.repeats.pointee.takeUnabsorbed(index) else { continue }
            let state = shard.state
            let slot = typeSlot(mailType, in: state)
            state.pointee.countPosts(runs, deliveries: runs, slot: slot, second: shard.repeats.pointee.second)
            if !state.pointee.recordUntimedRuns(runs, for: recipient, slot: slot) {
                var traffic = RecipientTraffic(slot: Int32(truncatingIfNeeded: slot))
                traffic.recordUntimed(runs)
                insertIfRegistered(recipient, traffic, in: state)
            }
        }
    }

    /// Reads a shard with its lock held, after adding the repeats counted without the lock: how a snapshot reads one.
    /// (A recipient's removal need not: repeats absorbed after it count for their mail type only, as the registry
    /// no longer knows the recipient.)
    func withAbsorbedShard<T>(_ shard: ShardTable.Shard, _ body: (UnsafeMutablePointer<ShardState>) -> T) -> T {
        shard.withLock { state in
            absorbRepeats(of: shard)
            return body(state)
        }
    }

    /// Counts one untimed run of `recipient`, making its entry if it has none yet.
    @inline(__always)
    private func recordUntimedRun(to recipient: RecipientId, slot: Int, in state: UnsafeMutablePointer<ShardState>) {
        if !state.pointee.recordRun(for: recipient, slot: slot, duration: nil) {
            recordFirstDelivery(to: recipient, slot: slot, duration: nil, in: state)
        }
    }

    private func remove(_ id: RecipientId, prune: Prune?, at eventTime: Nanoseconds) {
        let time = usesEventTime ? eventTime : clock.now()
        let second = second(at: time)
        let (known, reused) = registry.withLock {
            ($0.remove(id, prune: prune, second: second, time: time), $0.takeReusedRows())
        }
        forgetRuns(ofRows: reused)
        guard known else { return }
        for shard in shards.all { shard.withLock { $0.pointee.removeRecipient(id) } }
    }

    /// Forgets the timed runs the shards keep for site rows the registry gave to another site: the old site's
    /// registrations are all gone, and its runs are not the new site's.
    private func forgetRuns(ofRows rows: [Int]) {
        for row in rows {
            for shard in shards.all { shard.withLock { $0.pointee.clearSiteRuns(row) } }
        }
    }

    // MARK: - Time

    /// The second since ``origin`` that `time` falls in; times before it count as second 0.
    @inline(__always)
    func second(at time: Nanoseconds) -> Int64 {
        let start = origin.load(ordering: .relaxed)
        return time > start ? Int64((time &- start) / 1_000_000_000) : 0
    }

    @inline(__always)
    private func second(ofEventAt eventTime: Nanoseconds) -> Int64 {
        second(at: usesEventTime ? eventTime : clock.now())
    }

    func now() -> Nanoseconds { clock.now() }

    // MARK: - Shards

    /// Counts one post or skip of `mailType` in this thread's shard: its total and its second.
    @inline(__always)
    private func count(
        _ total: WritableKeyPath<TypeTraffic, UInt64>, lane: Int, of mailType: TypeIdentity, second: Int64,
        bridged: Bool = false
    ) {
        let shard = shards.current()
        shard.lock()
        let state = shard.state
        let slot = typeSlot(mailType, in: state)
        state.pointee.count(total, lane: lane, slot: slot, second: second)
        if bridged { state.pointee.countBridged(slot: slot) }
        shard.unlock()
    }

    /// The slot of a posted type's traffic in a shard's state, made on first sight. Call with the shard's lock held.
    @inline(__always)
    private func typeSlot(
        _ mailType: TypeIdentity, key: ObjectIdentifier? = nil, in state: UnsafeMutablePointer<ShardState>
    ) -> Int {
        let key = key ?? ObjectIdentifier(mailType.type)
        if state.pointee.lastType == key { return state.pointee.lastSlot }
        let slot = state.pointee.typeSlots[key] ?? newTypeSlot(mailType, key: key, in: state)
        state.pointee.lastType = key
        state.pointee.lastSlot = slot
        return slot
    }

    private func newTypeSlot(
        _ mailType: TypeIdentity, key: ObjectIdentifier, in state: UnsafeMutablePointer<ShardState>
    ) -> Int {
        let admitted = admittedTypes.withLock { admitted -> TypeIdentity in
            if let known = admitted[key] { return known }
            guard admitted.count < settings.mailTypeCapacity else { return TypeIdentity(OtherMailTypes.self) }
            admitted[key] = mailType
            return mailType
        }
        let slot =
            state.pointee.types.firstIndex { $0.mailType == admitted }
            ?? {
                state.pointee.types.append(TypeTraffic(mailType: admitted, ringCapacity: ringCapacity))
                return state.pointee.types.count - 1
            }()
        state.pointee.typeSlots[key] = slot
        return slot
    }

    /// Starts the delivery counters of a recipient in a shard, if the registry knows the recipient. Call with the
    /// shard's lock held: removal takes the registry's lock and then each shard's, so a recipient removed meanwhile
    /// is either not added or removed again right after.
    private func recordFirstDelivery(
        to id: RecipientId, slot: Int, duration: Nanoseconds?, in state: UnsafeMutablePointer<ShardState>
    ) {
        var traffic = RecipientTraffic(slot: Int32(truncatingIfNeeded: slot))
        traffic.record(duration: duration)
        guard let site = insertIfRegistered(id, traffic, in: state), let duration else { return }
        state.pointee.recordSiteRun(duration, site: site)
    }

    /// Adds a recipient's first counters to a shard, if the registry knows the recipient. Call with the shard's lock
    /// held (see ``recordFirstDelivery(to:slot:duration:in:)``).
    /// Returns the row of its site, or `nil` if the registry does not know it.
    @discardableResult
    private func insertIfRegistered(
        _ id: RecipientId, _ traffic: RecipientTraffic, in state: UnsafeMutablePointer<ShardState>
    ) -> Int32? {
        guard let site = registry.withLock({ $0.siteIndex(of: id) }) else { return nil }
        var traffic = traffic
        traffic.site = Int32(truncatingIfNeeded: site)
        state.pointee.recipients.insert(id, traffic)
        return traffic.site
    }

    @inline(__always)
    private func recordQueued(
        on label: String, wait: Nanoseconds, mailType: TypeIdentity, second: Int64,
        in state: UnsafeMutablePointer<ShardState>
    ) {
        let bound = stallBound
        if state.pointee.queues[label]?.record(wait: wait, mailType: mailType, second: second, bound: bound) != nil {
            return
        }
        let key = state.pointee.queues.count < QueueTraffic.capacity ? label : QueueTraffic.otherLabel
        state.pointee.queues[key, default: QueueTraffic(ringCapacity: ringCapacity)]
            .record(wait: wait, mailType: mailType, second: second, bound: bound)
    }
}
