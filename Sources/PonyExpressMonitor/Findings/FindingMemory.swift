import PonyExpress

/// What the monitor remembers of its findings from one snapshot to the next: when each was first seen, the leaks
/// that still stand on live registrations after their growth stopped, and the ones it took back.
///
/// Bounded by the findings themselves: a held leak keeps only the ids of its registrations that are still alive.
struct FindingMemory {
    /// A finding whose rule stopped raising it, held while its registrations live.
    private struct Held {
        var finding: Finding
        var registrations: Set<RecipientId>
        var minimum: Int
    }

    private var firstSeen: [String: Nanoseconds] = [:]
    private var held: [String: Held] = [:]
    private var retracted: [String: Finding] = [:]

    /// Judges the findings the rules raised at `time`: stamps when each was first seen, keeps the leaks that still
    /// stand, and retracts those whose registrations ended.
    ///
    /// - Parameters:
    ///   - input: The live tables a held leak is checked against; `nil` when judging recorded facts, whose rules
    ///     hold no leak.
    ///   - sighted: When a raised finding was first seen in the app (by any judge), noting this sighting.
    /// - Returns: The findings that hold and those taken back since the last reset, newest first.
    mutating func judge(
        _ raised: [(rule: any FindingRule, finding: Finding)], input: FindingInput?, time: Nanoseconds,
        sighted: (Finding) -> Nanoseconds
    ) -> (holding: [Finding], retracted: [Finding]) {
        var current: [String: Nanoseconds] = [:]
        var holding: [Finding] = []
        var raisedIds = Set<String>()
        for (rule, finding) in raised {
            let stamped = finding.seen(at: Swift.min(firstSeen[finding.id] ?? time, sighted(finding)))
            current[finding.id] = stamped.firstSeen
            raisedIds.insert(finding.id)
            holding.append(stamped)
            retracted[finding.id] = nil
            guard let input, let standing = rule.standing(of: finding, in: input) else { continue }
            let earlier = held[finding.id]?.registrations ?? []
            held[finding.id] = Held(
                finding: stamped, registrations: earlier.union(standing.registrations), minimum: standing.minimum)
        }
        for (id, entry) in held where !raisedIds.contains(id) {
            guard let input else { continue }
            let alive = entry.registrations.filter { input.entries[$0] != nil && input.liveness.isAlive($0) }
            let ended = entry.registrations.count - alive.count
            if alive.count >= entry.minimum {
                held[id]?.registrations = alive
                current[id] = entry.finding.firstSeen
                holding.append(
                    entry.finding.with(
                        explanation: entry.finding.explanation
                            + "; no longer growing, \(alive.count) of the registrations that raised it still alive"))
            } else {
                held[id] = nil
                retracted[id] = entry.finding.with(
                    explanation: entry.finding.explanation,
                    retraction:
                        "the registrations that raised it ended (\(ended) of \(entry.registrations.count), "
                        + "\(alive.count) left): a population that filled up and emptied, not a leak")
            }
        }
        firstSeen = current
        return (Self.newestFirst(holding), Self.newestFirst(Array(retracted.values)))
    }

    /// Forgets every finding: at attach and reset.
    mutating func removeAll() {
        self = FindingMemory()
    }

    private static func newestFirst(_ findings: [Finding]) -> [Finding] {
        findings.sorted { ($0.firstSeen, $1.id) > ($1.firstSeen, $0.id) }
    }
}
