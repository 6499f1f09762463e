import Foundation
import PonyExpressMonitor

/// The headless summary of a run (`ponytop --report text|json`): what the screen shows, for every mail type at once.
///
/// It is built from the same rows as the screen (``Dashboard``, ``SiteRow``, ``QueueRow``, ``PruneGroupRow``,
/// ``FindingRow``), so the two carry the same information. The JSON form has stable snake_case keys, a
/// `schema_version` and the tool's version; a figure with no data (a wait on a synchronous mail type, a site's
/// growth before a minute has passed) is `null`, never 0. Durations are in microseconds (`_us`) or seconds
/// (`_seconds`).
package struct Report: Codable, Equatable, Sendable {
    /// The version of the JSON layout; it changes when a key changes meaning or goes away.
    package static let currentSchemaVersion = 2

    /// What a report watched: a scenario ponytop ran, an app it attached to, or a recording it replayed.
    package struct Source: Codable, Equatable, Sendable {
        package enum Kind: String, Codable, Equatable, Sendable {
            case scenario, attached, replay
        }

        package var kind: Kind
        /// The scenario's name, or the process name of the app (or of the app a recording was made of).
        package var name: String
        /// The app's process id; `null` for a scenario.
        package var pid: Nullable<Int32>

        package init(kind: Kind, name: String, pid: Int32? = nil) {
            self.kind = kind
            self.name = name
            self.pid = Nullable(pid)
        }
    }

    /// Counts over every mail type.
    package struct Totals: Codable, Equatable, Sendable {
        /// Counts since the monitor attached.
        package var posts, deliveries, skipped, pruned: UInt64
        /// Live recipients at the end.
        package var recipients: Int
        /// Rates over the last second.
        package var postsPerSecond, deliveriesPerSecond, prunesPerSecond: Double
    }

    /// Latency percentiles in microseconds.
    package struct Latency: Codable, Equatable, Sendable {
        /// How many latencies were recorded.
        package var count: UInt64
        /// Percentiles and maximum in microseconds.
        package var p50Us, p90Us, p99Us, maxUs: Double

        /// The distribution's figures, `nil` without data.
        static func of(_ distribution: LatencyDistribution) -> Nullable<Latency> {
            guard distribution.count > 0 else { return Nullable(nil) }
            return Nullable(
                Latency(
                    count: distribution.count, p50Us: micro(distribution.p50), p90Us: micro(distribution.p90),
                    p99Us: micro(distribution.p99), maxUs: micro(distribution.max)))
        }
    }

    /// The recipients registered at one site, as the recipients pane shows them.
    package struct Site: Codable, Equatable, Sendable {
        /// `Module/File.swift:line`.
        package var site: String
        /// The mail type registered for, and whether it is a superclass of the mail type listed.
        package var registeredFor: String
        package var inherited: Bool
        /// `object` or `block`, the object's type, the queue label and the sender filter.
        package var kind: String
        package var recipientType: Nullable<String>
        package var queue: Nullable<String>
        package var sender: String
        /// Live registrations and how they grew over the last 10 s and minute (`null` before that long).
        package var recipients: Int
        package var growthTenSeconds, growthOneMinute: Nullable<Int>
        /// The oldest live registration's age.
        package var oldestSeconds: Nullable<Double>
        /// Handler runs, and the wait on its queue (`null` for synchronous delivery).
        package var deliveries: UInt64
        package var queueWaitP99Us: Nullable<Double>
        /// The same object registered again.
        package var duplicates: Int
    }

    /// One mail type.
    package struct MailType: Codable, Equatable, Sendable {
        /// The mail type's name.
        package var name: String
        /// Its counts and rates.
        package var posts, deliveries, pruned: UInt64
        package var postsPerSecond, deliveriesPerSecond: Double
        /// Live recipients that receive it: registered for it, and for one of its superclasses.
        package var recipients, ownRecipients, inheritedRecipients: Int
        /// Its superclasses among the mail types, nearest first.
        package var superclasses: [String]
        /// Handler run times, and waits before queued delivery.
        package var handlerTime, queueWait: Nullable<Latency>
        /// Every site whose recipients receive it.
        package var sites: [Site]
        /// What a relay did with it; `null` for a type not shared with other processes.
        package var relay: Nullable<Relay> = Nullable(nil)
    }

    /// A shared mail type's relay counts (since the relay started) and the p99 lag from post in another process to
    /// arrival, `null` before any arrival.
    package struct Relay: Codable, Equatable, Sendable {
        package var sent, received, dropped: UInt64
        package var lagP99Us: Nullable<Double>

        init(_ figures: RelayFigures) {
            sent = figures.sent
            received = figures.received
            dropped = figures.dropped
            lagP99Us = Nullable(figures.lagSamples == 0 ? nil : micro(figures.lagP99))
        }
    }

    /// One queue.
    package struct Queue: Codable, Equatable, Sendable {
        /// The queue's label.
        package var label: String
        /// Handler runs, and per second.
        package var deliveries: UInt64
        package var deliveriesPerSecond: Double
        /// Mail waiting (estimated), `null` when unknown.
        package var backlog: Nullable<Double>
        /// Waits from post to handler start.
        package var wait: Nullable<Latency>
        /// Mail types delivered on it, and live recipients.
        package var mailTypes: [String]
        package var recipients: Int
    }

    /// The recent prunes of one site.
    package struct PruneGroup: Codable, Equatable, Sendable {
        /// Where the registrations were made, who was pruned, for which mail type and what was released.
        package var site: String
        package var recipientType: Nullable<String>
        package var mailType: String
        package var reason: String
        /// How many, how long they lived (median) and how long ago the newest was pruned.
        package var count: Int
        package var medianLifetimeSeconds, lastSecondsAgo: Double
    }

    /// One number behind a finding.
    package struct EvidenceEntry: Codable, Equatable, Sendable {
        /// What it measures, and its value in its unit (`count`, `nanoseconds`, `perSecond` or `share`).
        package var name: String
        package var value: Double
        package var unit: String
        /// The value as people read it, as ponytop shows it: `2.6ms`, `4.2/s`.
        package var text: String
    }

    /// One finding.
    package struct FindingEntry: Codable, Equatable, Sendable {
        /// The finding's kind, category and mail type.
        package var kind, category, mailType: String
        /// The registration site and subject, if any.
        package var site, subject: Nullable<String>
        /// One line saying what is wrong, and the numbers behind it.
        package var explanation: String
        package var evidence: [EvidenceEntry]
        /// How long ago the monitor first saw it.
        package var firstSeenSecondsAgo: Double
    }

    /// The JSON layout's version, ``currentSchemaVersion``.
    package var schemaVersion: Int
    /// The tool and its version, such as `ponytop 0.2.0`.
    package var tool: String
    /// What it watched.
    package var source: Source
    /// The scenario that ran, `null` when ponytop watched an app or a recording.
    package var scenario: Nullable<String>
    /// How long it ran, in seconds.
    package var durationSeconds: Double
    /// The rate factor and seed the scenario ran with; `null` when ponytop watched an app or a recording.
    package var rate: Nullable<Double>
    package var seed: Nullable<UInt64>
    /// Counts over every mail type.
    package var totals: Totals
    /// Every mail type posted or registered, most posts first.
    package var mailTypes: [MailType]
    /// Every queue that delivered mail, longest wait first.
    package var queues: [Queue]
    /// The recent prunes, grouped by site, most first.
    package var prunes: [PruneGroup]
    /// Every finding, newest first.
    package var findings: [FindingEntry]

    /// Builds the report of a monitor snapshot, from the rows the screen shows.
    ///
    /// - Parameters:
    ///   - snapshot: The monitor's snapshot at the end of the run.
    ///   - source: What it watched.
    ///   - durationSeconds: How long it ran.
    ///   - rate: The scenario's rate factor; ignored for an app or a recording.
    ///   - seed: The scenario's seed; ignored for an app or a recording.
    package init(snapshot: MonitorSnapshot, source: Source, durationSeconds: Double, rate: Double, seed: UInt64) {
        let status = ScenarioStatus(
            name: source.name, phase: "", phaseIndex: 0, phaseCount: 1, isPaused: false, isFinished: true)
        let dashboard = Dashboard(snapshot: snapshot, scenario: status, state: AppState())
        let state = AppState()
        schemaVersion = Self.currentSchemaVersion
        tool = ToolVersion.named
        self.source = source
        let isScenario = source.kind == .scenario
        scenario = Nullable(isScenario ? source.name : nil)
        self.durationSeconds = durationSeconds
        self.rate = Nullable(isScenario ? rate : nil)
        self.seed = Nullable(isScenario ? seed : nil)
        totals = Totals(
            posts: snapshot.totals.posts, deliveries: dashboard.deliveries, skipped: snapshot.totals.skipped,
            pruned: dashboard.pruned, recipients: dashboard.recipients,
            postsPerSecond: Self.finite(dashboard.postsPerSecond),
            deliveriesPerSecond: Self.finite(dashboard.deliveriesPerSecond),
            prunesPerSecond: Self.finite(dashboard.prunesPerSecond))
        mailTypes = state.visibleMailTypes(in: dashboard).map { row in
            let sites = Dashboard.sites(of: row.mailType, in: snapshot)
            return MailType(
                name: row.name, posts: row.posts, deliveries: row.deliveries, pruned: row.pruned,
                postsPerSecond: Self.finite(row.postsPerSecond),
                deliveriesPerSecond: Self.finite(row.deliveriesPerSecond),
                recipients: row.recipients, ownRecipients: row.ownRecipients,
                inheritedRecipients: row.inheritedRecipients, superclasses: row.superclasses.map(\.name),
                handlerTime: Latency.of(row.handlerLatency), queueWait: Latency.of(row.queueWait),
                sites: Pane.recipients.defaultSort!.sorted(sites, key: \.key) { $0.sortKey($1) }.map(Site.init),
                relay: Nullable(row.relay.map(Relay.init)))
        }
        queues = state.queueRows(in: dashboard).map { queue in
            Queue(
                label: queue.label, deliveries: queue.deliveries,
                deliveriesPerSecond: Self.finite(queue.deliveriesPerSecond), backlog: Nullable(queue.backlog),
                wait: Latency.of(queue.wait), mailTypes: queue.mailTypes, recipients: queue.recipients)
        }
        prunes = state.pruneLines(in: dashboard).compactMap { line in
            guard case .group(let group, _) = line else { return nil }
            return PruneGroup(
                site: group.site, recipientType: Nullable(group.recipientType), mailType: group.mailType.name,
                reason: group.reason, count: group.count, medianLifetimeSeconds: Double(group.medianLifetime) / 1e9,
                lastSecondsAgo: Double(group.newestAge) / 1e9)
        }
        findings = dashboard.findings.map { finding in
            FindingEntry(
                kind: finding.kind, category: finding.category, mailType: finding.mailType.name,
                site: Nullable(finding.site), subject: Nullable(finding.subject), explanation: finding.explanation,
                evidence: finding.evidence.map {
                    EvidenceEntry(name: $0.name, value: Self.finite($0.value), unit: $0.unit, text: $0.text)
                },
                firstSeenSecondsAgo: Double(finding.age) / 1e9)
        }
    }

    /// JSON has no NaN or infinity: such a figure is reported as 0.
    static func finite(_ value: Double) -> Double {
        value.isFinite ? value : 0
    }

    /// Whether a finding of a category (`leak`, `oversubscription`, `slow`) is present; `nil` asks for any.
    package func hasFinding(category: String?) -> Bool {
        findings.contains { category == nil || $0.category == category }
    }

    /// The report as JSON with snake_case keys, sorted, pretty-printed.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, an integer, a finite number or null, so encoding cannot fail.
        let data = try! encoder.encode(self)
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes a report from ``json()``'s output.
    package static func decode(json: String) throws -> Report {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Report.self, from: Data(json.utf8))
    }
}

extension Report.Site {
    init(_ site: SiteRow) {
        self.init(
            site: site.site, registeredFor: site.registeredFor, inherited: site.isInherited, kind: site.kind,
            recipientType: Nullable(site.objectType), queue: Nullable(site.queue), sender: site.sender,
            recipients: site.recipients, growthTenSeconds: Nullable(site.growth10s),
            growthOneMinute: Nullable(site.growth1m), oldestSeconds: Nullable(site.oldestAge.map { Double($0) / 1e9 }),
            deliveries: site.deliveries, queueWaitP99Us: Nullable(site.queueWaitP99.map(micro)),
            duplicates: site.duplicates)
    }
}

/// Nanoseconds in microseconds.
private func micro(_ nanoseconds: UInt64) -> Double {
    Double(nanoseconds) / 1e3
}
