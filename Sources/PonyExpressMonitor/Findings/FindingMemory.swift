import PonyExpress

/// What a judge remembers of its findings from one snapshot to the next: when each was first seen, the leaks that
/// still stand on live registrations after their growth stopped, and the ones it took back.
///
/// A held leak keeps how many of the registrations that raised it live, by the second they were registered in, and
/// updates those counts from each snapshot's facts (``GrowingRegistrationsRule/Facts/changes``): exact while the
/// snapshots it judges are less than the kept history apart and the app lost no change, and said otherwise. Bounded by
/// the findings: a held leak keeps one count per second of its window.
struct FindingMemory {
    /// A finding whose rule stopped raising it, held while its registrations live.
    private struct Held {
        var finding: Finding
        var standing: FindingStanding
        /// The last second at which its counts were known exactly, once they no longer are.
        var uncertainSince: Int64?

        var alive: Int { standing.counts.values.reduce(0, &+) }
    }

    private var firstSeen: [String: Nanoseconds] = [:]
    private var held: [String: Held] = [:]
    private var retracted: [String: Finding] = [:]
    /// The second of the facts judged last.
    private var lastSecond: Int64?

    /// Judges the findings the rules raised from `facts`: stamps when each was first seen, keeps the leaks that still
    /// stand, and retracts those whose registrations ended.
    ///
    /// - Parameters:
    ///   - facts: The facts the findings were raised from; their leak facts update the held leaks.
    ///   - sighted: When a raised finding was first seen in the app (by any judge), noting this sighting.
    /// - Returns: The findings that hold and those taken back since the last reset, newest first.
    mutating func judge(
        _ raised: [(rule: any FindingRule, finding: Finding)], facts: RuleFacts, sighted: (Finding) -> Nanoseconds
    ) -> (holding: [Finding], retracted: [Finding]) {
        let time = facts.time
        updateHeld(from: facts)
        var current: [String: Nanoseconds] = [:]
        var holding: [Finding] = []
        var raisedIds = Set<String>()
        // A date the facts give can be no earlier than the monitor's origin: facts from outside may say anything.
        let (span, overflow) = UInt64(clamping: facts.second &+ 1).multipliedReportingOverflow(by: 1_000_000_000)
        let origin = overflow ? 0 : time &- Swift.min(time, span)
        for (rule, finding) in raised {
            let began = finding.firstSeen > 0 ? Swift.max(origin, finding.firstSeen) : time
            let stamped = finding.seen(at: Swift.min(firstSeen[finding.id] ?? time, sighted(finding), began))
            current[finding.id] = stamped.firstSeen
            raisedIds.insert(finding.id)
            holding.append(stamped)
            retracted[finding.id] = nil
            guard var standing = rule.standing(of: finding, in: facts) else { continue }
            // The windows of earlier sightings stay: a leak stands on every registration whose growth raised it.
            if let earlier = held[finding.id]?.standing {
                standing.counts.merge(earlier.counts) { now, _ in now }
                let lower = Swift.min(standing.seconds.lowerBound, earlier.seconds.lowerBound)
                standing.seconds = lower...Swift.max(standing.seconds.upperBound, earlier.seconds.upperBound)
            }
            held[finding.id] = Held(
                finding: stamped, standing: standing, uncertainSince: held[finding.id]?.uncertainSince)
        }
        for (id, entry) in held where !raisedIds.contains(id) {
            let alive = entry.alive
            if alive >= entry.standing.minimum {
                current[id] = entry.finding.firstSeen
                var explanation =
                    entry.finding.explanation
                    + "; no longer growing past the threshold, \(alive) of the registrations that raised it "
                    + "still alive"
                if let since = entry.uncertainSince {
                    explanation +=
                        " at second \(since), the last this viewer could check (it missed the app's changes since)"
                }
                holding.append(entry.finding.with(explanation: explanation))
            } else {
                held[id] = nil
                retracted[id] = entry.finding.with(
                    explanation: entry.finding.explanation,
                    retraction:
                        "the registrations that raised it ended (\(alive) of them left, fewer than "
                        + "\(entry.standing.minimum)): a population that filled up and emptied, not a leak")
            }
        }
        firstSeen = current
        return (Self.newestFirst(holding), Self.newestFirst(Array(retracted.values)))
    }

    /// Brings the held leaks' counts to `facts`: the registration seconds that changed since the last facts judged,
    /// or, when changes were missed (the facts are further apart than the history the app keeps, or the app lost
    /// some), marks them uncertain. Facts from before the last ones (the app's reset moved its origin) drop them.
    private mutating func updateHeld(from facts: RuleFacts) {
        defer { lastSecond = facts.second }
        guard !held.isEmpty, let last = lastSecond else { return }
        guard facts.second >= last, let leaks = facts.leaks else {
            held.removeAll()
            return
        }
        let gap = facts.second &- last
        let missed =
            gap < 0 || gap >= Int64(clamping: facts.keptSeconds) || (leaks.changesLostAt.map { $0 >= last } ?? false)
        let changes = Dictionary(leaks.changes.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        for (id, entry) in held {
            var updated = entry
            if missed, updated.uncertainSince == nil { updated.uncertainSince = last }
            if let site = changes[entry.standing.site] {
                for (second, alive) in zip(site.seconds, site.alive) where updated.standing.seconds.contains(second) {
                    updated.standing.counts[second] = Swift.max(0, alive)
                }
            }
            held[id] = updated
        }
    }

    /// Forgets every finding: at attach and reset.
    mutating func removeAll() {
        self = FindingMemory()
    }

    private static func newestFirst(_ findings: [Finding]) -> [Finding] {
        findings.sorted { ($0.firstSeen, $1.id) > ($1.firstSeen, $0.id) }
    }
}
