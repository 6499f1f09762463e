import PonyExpress

/// Every finding seen during a run, once each, from successive snapshots: when it was first and last seen, its state
/// now, and its evidence at its worst. What a report and a CI guard judge, so that a leak that stopped growing, or a
/// stall that cleared, is not forgotten at the end of the run.
///
/// ```swift
/// var log = FindingLog()
/// for change in log.record(monitor.snapshot()) {
///     print(change.event, change.entry.finding.explanation)
/// }
/// let failing = log.entries.filter { $0.counts && $0.finding.category == .leak }
/// ```
public struct FindingLog: Sendable {
    /// Where a finding stands at the latest snapshot.
    public enum State: Sendable, Equatable {
        /// Its condition holds (for a leak: its registrations are still alive).
        case holding
        /// It held earlier in the run and no longer does, such as a stall that cleared.
        case noLongerHolding
        /// The monitor took it back, for the reason given (a leak whose registrations ended).
        case retracted(reason: String)
    }

    /// One finding of the run.
    public struct Entry: Sendable, Equatable, Identifiable {
        /// The finding's identity: kind, mail type, site and subject.
        public let id: String
        /// The finding as last seen.
        public fileprivate(set) var finding: Finding
        /// The finding as seen at its worst, by its rule's ``FindingRuleInfo/severity``.
        public fileprivate(set) var worst: Finding
        /// When the monitor first saw it, and the last snapshot that showed it, on the monitor's clock.
        public fileprivate(set) var firstSeen, lastSeen: Nanoseconds
        /// Where it stands now.
        public package(set) var state: State

        /// The entry of a finding that holds, seen once: what a snapshot's finding is without a log.
        ///
        /// - Parameter finding: The finding.
        package init(holding finding: Finding) {
            self.init(
                id: finding.id, finding: finding, worst: finding, firstSeen: finding.firstSeen,
                lastSeen: finding.firstSeen, state: .holding)
        }

        fileprivate init(
            id: String, finding: Finding, worst: Finding, firstSeen: Nanoseconds, lastSeen: Nanoseconds, state: State
        ) {
            self.id = id
            self.finding = finding
            self.worst = worst
            self.firstSeen = firstSeen
            self.lastSeen = lastSeen
            self.state = state
        }

        /// Whether it counts against the run: every finding but a retracted one.
        public var counts: Bool {
            if case .retracted = state { return false }
            return true
        }
    }

    /// What changed for one finding at a snapshot.
    public struct Change: Sendable {
        /// What happened.
        public enum Event: String, Sendable {
            /// Seen for the first time in the run.
            case appeared
            /// Held, then was missing from a snapshot.
            case stoppedHolding
            /// Taken back by the monitor, with its reason.
            case retracted
            /// Held again after it stopped.
            case holdsAgain
        }

        /// What happened.
        public let event: Event
        /// The finding, after the change.
        public let entry: Entry
    }

    private var byId: [String: Entry] = [:]

    /// An empty log.
    public init() {}

    /// Every finding of the run, newest first.
    public var entries: [Entry] {
        byId.values.sorted { ($0.firstSeen, $1.id) > ($1.firstSeen, $0.id) }
    }

    /// Whether no finding was seen.
    public var isEmpty: Bool { byId.isEmpty }

    /// Adds what `snapshot` shows: its findings hold, its retracted findings are taken back, and every other finding
    /// of the log no longer holds.
    ///
    /// - Parameter snapshot: The latest snapshot.
    /// - Returns: What changed, finding by finding.
    @discardableResult
    public mutating func record(_ snapshot: MonitorSnapshot) -> [Change] {
        var changes: [Change] = []
        var shown = Set<String>()
        for finding in snapshot.findings {
            shown.insert(finding.id)
            guard var entry = byId[finding.id] else {
                let entry = Entry(
                    id: finding.id, finding: finding, worst: finding, firstSeen: finding.firstSeen,
                    lastSeen: snapshot.time, state: .holding)
                byId[finding.id] = entry
                changes.append(Change(event: .appeared, entry: entry))
                continue
            }
            let wasHolding = entry.state == .holding
            entry.finding = finding
            entry.lastSeen = snapshot.time
            entry.state = .holding
            if Self.severity(of: finding) >= Self.severity(of: entry.worst) { entry.worst = finding }
            byId[finding.id] = entry
            if !wasHolding { changes.append(Change(event: .holdsAgain, entry: entry)) }
        }
        for finding in snapshot.retractedFindings where !shown.contains(finding.id) {
            shown.insert(finding.id)
            let reason = finding.retraction ?? "taken back by the monitor"
            var entry =
                byId[finding.id]
                ?? Entry(
                    id: finding.id, finding: finding, worst: finding, firstSeen: finding.firstSeen,
                    lastSeen: finding.firstSeen, state: .holding)
            guard entry.state != .retracted(reason: reason) else { continue }
            entry.finding = finding
            entry.state = .retracted(reason: reason)
            byId[finding.id] = entry
            changes.append(Change(event: .retracted, entry: entry))
        }
        for (id, var entry) in byId where !shown.contains(id) && entry.state == .holding {
            entry.state = .noLongerHolding
            byId[id] = entry
            changes.append(Change(event: .stoppedHolding, entry: entry))
        }
        return changes
    }

    /// Forgets every finding: what a reset of the statistics does.
    public mutating func removeAll() {
        byId.removeAll()
    }

    private static func severity(of finding: Finding) -> Double {
        FindingRules.rule(for: finding.kind)?.severity(of: finding) ?? finding.evidence.first?.value ?? 0
    }
}
