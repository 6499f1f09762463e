import Histogram
import PonyExpress

extension PostOfficeMonitor {
    /// Everything the monitor knows now, as an immutable value, with findings judged by the monitor's own ``judge``.
    ///
    /// Merges the shards' counters and histograms (each shard's lock is held only while it is copied) and the
    /// registration table, then judges the findings. Cheap enough to call ten times a second under heavy traffic:
    /// its cost grows with the number of mail types, sites and live recipients, not with the traffic.
    ///
    /// - Returns: The snapshot. Its totals are the sums of its per-type figures.
    public func snapshot() -> MonitorSnapshot {
        snapshot(judgedBy: judge)
    }

    /// Everything the monitor knows now, with findings judged by `judge`: a consumer's own rules and memory.
    ///
    /// Taking it changes nothing but `judge`'s memory: another consumer's judge, and every counter, are untouched.
    ///
    /// - Parameter judge: The consumer's judge, from ``makeJudge(overriding:)``.
    /// - Returns: The snapshot.
    public func snapshot(judgedBy judge: FindingJudge) -> MonitorSnapshot {
        snapshot(keepingRecipientsOf: { _ in true }, judgedBy: judge)
    }

    /// A snapshot that carries the live recipients of the mail types `isKept` accepts (it is asked once for each
    /// mail type with live recipients), with every other figure (counts, sites, findings) the full ``snapshot()``'s:
    /// what a viewer in another process asks for, since the recipients of all mail types can be far more than it
    /// shows at once, and building each one's row costs the app. (A snapshot already taken is trimmed the same way
    /// with ``MonitorSnapshot/keepRecipients(of:)``.)
    ///
    /// - Parameters:
    ///   - isKept: Whether to carry the recipients of a registered mail type.
    ///   - judge: The consumer's judge; the monitor's own when `nil`.
    ///   - factsInFull: Whether the rule facts must serve any threshold (a recording's, judged again later), not only
    ///     `judge`'s: the living recipients of every mail type with more than one are counted, which asks the post
    ///     office about each of them.
    /// - Returns: The snapshot.
    package func snapshot(
        keepingRecipientsOf isKept: (TypeIdentity) -> Bool, judgedBy judge: FindingJudge? = nil,
        factsInFull: Bool = false
    ) -> MonitorSnapshot {
        let judge = judge ?? self.judge
        return snapshot(keepingRecipientsOf: isKept, factsFor: factsInFull ? .any : judge.floors, judgedBy: judge)
    }

    /// A snapshot like ``snapshot(keepingRecipientsOf:judgedBy:factsInFull:)``'s that no judge in the app judges: its
    /// findings are empty and its rule facts serve any thresholds at or above `floors`. What the agent sends a viewer
    /// that judges the facts itself (wire protocol 1.9): taking it notes no sighting and moves no judge's memory.
    ///
    /// - Parameters:
    ///   - isKept: Whether to carry the recipients of a registered mail type.
    ///   - floors: The viewer's least thresholds (``RuleFacts/Floors/any`` for a recording).
    /// - Returns: The snapshot, with ``MonitorSnapshot/ruleFacts``.
    package func unjudgedSnapshot(
        keepingRecipientsOf isKept: (TypeIdentity) -> Bool, factsFor floors: RuleFacts.Floors
    ) -> MonitorSnapshot {
        snapshot(keepingRecipientsOf: isKept, factsFor: floors, judgedBy: nil)
    }

    private func snapshot(
        keepingRecipientsOf isKept: (TypeIdentity) -> Bool, factsFor floors: RuleFacts.Floors,
        judgedBy judge: FindingJudge?
    ) -> MonitorSnapshot {
        pruneReleased(at: now())
        let time = now()
        let start = origin.load(ordering: .acquiring)
        let current = second(at: time)
        let span = ringCapacity - 1
        let first = current - Int64(span)
        confirmDuplicates(second: current)

        var traffic: [TypeIdentity: MergedTraffic] = [:]
        var recipientTotals: [RecipientTotalsEntry] = []
        var queues: [String: MergedQueue] = [:]
        var siteRuns: [RunProfile] = []
        var memory = 256
        for shard in shards.all {
            let expected = shard.withLock { $0.pointee.recipients.count }
            var entries = [RecipientTable.Entry](repeating: .init(), count: expected + expected / 16 + 16)
            let copy = withAbsorbedShard(shard) { ShardCopy(of: $0.pointee, entries: &entries) }
            copy.merge(
                into: &traffic, recipientTotals: &recipientTotals, queues: &queues, siteRuns: &siteRuns, first: first,
                span: span)
            memory += copy.estimatedBytes
        }
        let view = takingViews.withLock { _ in
            RegistryView.take(from: registry, current: current, first: first, settings: settings)
        }
        memory += view.estimatedBytes

        let builder = typeRelations.withLock { relations in
            SnapshotBuilder(
                settings: settings, time: time, current: current, first: first, traffic: traffic,
                recipientTotals: recipientTotals, queues: queues, view: view, relations: &relations)
        }
        let mailTypes = withRelayFigures(builder.mailTypes())
        let queueStats = builder.queueStats()
        let input = builder.findingInput(
            mailTypes: mailTypes, queues: queueStats, siteRuns: siteRuns,
            liveness: Liveness(office: office.withLock { $0.office }),
            livingCountedAbove: floors.livingCountedAbove, growthFloor: floors.growthFloor)
        let (leaks, grown) = GrowingRegistrationsRule.Facts.gathering(input)
        let facts = RuleFacts(gathering: input, leaks: leaks)
        // The sites gathered are watched from now on, so that the next facts can hold a leak raised from these; the
        // registry's lock is taken only when there is a site to watch or a change to expire.
        if !grown.isEmpty || !input.leakChanges.isEmpty || input.leakChangesLostAt != nil {
            registry.withLock { $0.watch(grown, now: current, oldest: current - Int64(ringCapacity - 2)) }
        }
        let findings = judge?.judgeInMonitor(facts) ?? (holding: [], retracted: [])
        return MonitorSnapshot(
            time: time, uptime: time.elapsed(since: start), totals: builder.totals(),
            mailTypes: mailTypes, handlerLatency: builder.handlerLatency,
            queueWait: builder.queueWait, queues: queueStats, sites: builder.siteStats(),
            recentPrunes: view.recentPrunes, findings: findings.holding, retractedFindings: findings.retracted,
            recipientIndex: builder.recipients.index(keeping: isKept), estimatedMemoryBytes: memory,
            ruleFacts: facts)
    }

    /// How many registrations the post office checks under its lock at a time, for a snapshot.
    static let registrationsCheckedAtATime = 1_024
    /// How long one check at a time stands for: the monitor checks ten times 1,024 registrations a second of time
    /// passed since its last check.
    static let pruneCheckInterval: Nanoseconds = 100_000_000
    /// The most time passed that one snapshot's checks make up for: ten seconds, a hundred checks at a time.
    static let longestPruneCheckGap: Nanoseconds = 10_000_000_000

    /// Has the post office check registrations for a recipient object or exact sender released without
    /// unregistering, round all mail types, and prune those it finds (every tap hears of them, this monitor's
    /// registry included), so that the live counts the snapshot reads become true without a post of the dead
    /// recipients' mail type or a register of it.
    ///
    /// The monitor checks 10,240 registrations a second of time passed since its last check, 1,024 under the lock
    /// at a time, making up for at most ten seconds at once, and stopping when it has gone round them all: the app
    /// pays the same however many consumers take snapshots and however often (none more than ten times a second
    /// checks anything), and a registration released without unregistering stops counting within about
    /// `registrations / 10,240` seconds of snapshots (a metrics publisher's every ten seconds or ponytop's refresh).
    private func pruneReleased(at time: Nanoseconds) {
        let last = lastPruneCheck.load(ordering: .relaxed)
        guard time >= last &+ Self.pruneCheckInterval,
            lastPruneCheck.compareExchange(expected: last, desired: time, ordering: .relaxed).exchanged,
            let office = office.withLock({ $0.office })
        else { return }
        let gap = Swift.min(time &- last, Self.longestPruneCheckGap)
        for _ in 0..<Int(gap / Self.pruneCheckInterval) {
            let step = office.pruneStep(checking: Self.registrationsCheckedAtATime)
            if step.checked < Self.registrationsCheckedAtATime { break }
        }
    }

    /// Asks the post office which members of changed duplicate groups are alive: an object identifier is an address,
    /// which a new object may reuse once the old one is released without unregistering.
    private func confirmDuplicates(second: Int64) {
        let groups = registry.withLock { $0.takeGroupsToCheck() }
        guard !groups.isEmpty else { return }
        let alive = office.withLock { $0.office }.map { office in
            Set(groups.lazy.flatMap(\.ids).filter { office.isLive($0) })
        }
        registry.withLock { $0.confirmDuplicates(in: groups.map(\.key), alive: alive, second: second) }
    }
}
