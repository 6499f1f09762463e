import Foundation
import PonyExpressMonitor
import PonyTopModel

/// The headless summary of a run (`ponytop --report text|json|sarif`): what the screen shows, for every mail type at
/// once, and every finding seen during the run.
///
/// Plain versioned schema types, built from a `MonitorSnapshot` and the run's `FindingLog` alone (in
/// `Report+Snapshot.swift`), never from the screen: its rows are its own schema types, filled from the snapshot's
/// `MailTypeStats` and `QueueStats` and from `PonyTopModel`'s `SiteRow` and `PruneGroupRow`, listed in `PonyTopModel`'s
/// `DefaultOrder`, the order each pane shows before the user sorts it; so the two carry the same information in the
/// same order. The JSON form has stable snake_case keys, a
/// `schema_version` and the tool's version; a figure with no data (a wait on a synchronous mail type, a site's
/// growth before a minute has passed) is `null`, never 0. Durations are in microseconds (`_us`) or seconds
/// (`_seconds`).
package struct Report: Codable, Equatable, Sendable {
    /// The version of the JSON layout; it changes when a key changes meaning or goes away.
    package static let currentSchemaVersion = 3

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

    /// Counts of posts, deliveries, skips and prunes.
    package struct Counts: Codable, Equatable, Sendable {
        package var posts, deliveries, skipped, pruned: UInt64
    }

    /// Counts over every mail type.
    package struct Totals: Codable, Equatable, Sendable {
        /// Counts over the report's run: for an attached app and a recording, deltas from the run's first snapshot
        /// (a recording's run is the time between its first and last snapshots); for a scenario, everything since
        /// it started.
        package var posts, deliveries, skipped, pruned: UInt64
        /// What the counts cover: always `run`.
        package var countsCover: String
        /// For an attached app and a recording, the counts since the monitor attached to the app (its lifetime, as
        /// far as the agent knows) at the run's end; `null` for a scenario, whose run is its lifetime.
        package var appLifetime: Nullable<Counts>
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
        static func of(_ distribution: LatencySummary) -> Nullable<Latency> {
            guard distribution.count > 0 else { return Nullable(nil) }
            return Nullable(
                Latency(
                    count: distribution.count, p50Us: Report.micro(distribution.p50),
                    p90Us: Report.micro(distribution.p90), p99Us: Report.micro(distribution.p99),
                    maxUs: Report.micro(distribution.max)))
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
        /// Live registrations and how they grew over the last 10 s and minute (over a window longer than the
        /// monitor has watched the site: since it started watching).
        package var recipients: Int
        package var growthTenSeconds, growthOneMinute: Nullable<Int>
        /// The oldest live registration's age.
        package var oldestSeconds: Nullable<Double>
        /// Handler runs, and the wait on its queue (`null` for synchronous delivery).
        package var deliveries: UInt64
        package var queueWaitP99Us: Nullable<Double>
        /// The same object registered again.
        package var duplicates: Int
        /// The scopes that registered here and ended, by name, most leaked first; empty outside scopes.
        package var scopes: [Scope] = []
    }

    /// The scopes of one name that registered at a site and ended: how many left a registration alive, how many
    /// ended clean, and how many of their registrations outlived them and are still registered.
    package struct Scope: Codable, Equatable, Sendable {
        package var name: String
        package var leakedScopes, cleanScopes: UInt64
        package var outlived: Int
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
        /// Whether it is `VerifiedMail`, and the sender type it requires; known from its recipients' registrations
        /// (`false` and `null` for a type without recipients).
        package var verified: Bool
        package var requiredSender: Nullable<String>
        /// Handler run times, and waits before queued delivery.
        package var handlerTime, queueWait: Nullable<Latency>
        /// Every site whose recipients receive it.
        package var sites: [Site]
        /// What a relay did with it; `null` for a type not shared with other processes.
        package var relay: Nullable<Relay> = Nullable(nil)

        /// The text report's table of mail types, column by column, beside the fields it reads: a figure added to the
        /// JSON report joins the text report here, in the same file.
        static let textColumns: [TextColumn<MailType>] = [
            TextColumn("MAIL TYPE", isText: true) { $0.name },
            TextColumn("POSTS") { String($0.posts) },
            TextColumn("DELIVERIES") { String($0.deliveries) },
            TextColumn("RECIPIENTS") { String($0.recipients) },
            TextColumn("PRUNED") { String($0.pruned) },
            TextColumn("P50") { Report.duration($0.handlerTime.value?.p50Us) },
            TextColumn("P99") { Report.duration($0.handlerTime.value?.p99Us) },
            TextColumn("WAIT P99") { Report.duration($0.queueWait.value?.p99Us) },
            TextColumn("SUPERCLASSES", isText: true) {
                $0.superclasses.isEmpty ? "-" : $0.superclasses.joined(separator: ", ")
            },
        ]
    }

    /// One column of a text report's table: its heading, its cell for a row, and whether it is text (left-aligned)
    /// or a figure (right-aligned).
    struct TextColumn<Row>: Sendable {
        let heading: String
        let isText: Bool
        let cell: @Sendable (Row) -> String

        init(_ heading: String, isText: Bool = false, _ cell: @escaping @Sendable (Row) -> String) {
            self.heading = heading
            self.isText = isText
            self.cell = cell
        }
    }

    /// A shared mail type's relay counts over the report's run (like ``Totals``: for an attached app, deltas from
    /// the run's first snapshot) and the p99 lag from post in another process to arrival, over the relay's most
    /// recent arrivals (up to 1,024); `null` when nothing arrived during the run.
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

    /// One finding of the run, once per kind, mail type, site and subject.
    package struct FindingEntry: Codable, Equatable, Sendable {
        /// Where it stands at the end of the run.
        package enum State: String, Codable, Equatable, Sendable {
            /// Its condition holds (a leak: its registrations are still alive).
            case holding
            /// It held during the run and no longer does; it still fails `--fail-on`.
            case noLongerHolding = "no_longer_holding"
            /// The monitor took it back, for ``FindingEntry/retraction``; it does not fail `--fail-on`.
            case retracted
        }

        /// The finding's kind, category and mail type.
        package var kind, category, mailType: String
        /// The registration site (`Module/File.swift:line`) and subject, if any.
        package var site, subject: Nullable<String>
        /// The site's file as the build saw it (`#filePath`) and its line: where SARIF points. `null` without a
        /// site, or from an agent that does not send the path.
        package var file: Nullable<String>
        package var line: Nullable<Int>
        /// Where it stands at the end, and why the monitor took it back (`null` unless retracted).
        package var state: State
        package var retraction: Nullable<String>
        /// One line saying what is wrong, and the numbers behind it, as last seen.
        package var explanation: String
        package var evidence: [EvidenceEntry]
        /// The numbers at the finding's worst during the run.
        package var worstEvidence: [EvidenceEntry]
        /// How long before the end of the run the monitor first saw it, and last saw it hold.
        package var firstSeenSecondsAgo, lastSeenSecondsAgo: Double

        /// Whether it counts against the run (`--fail-on`): every finding but a retracted one.
        package var counts: Bool { state != .retracted }
    }

    /// The JSON layout's version, ``currentSchemaVersion``.
    package var schemaVersion: Int
    /// Whether the run was cut short (by SIGINT or SIGTERM): the report covers it up to then.
    package var partial: Bool
    /// The signal that cut it short, such as `SIGINT`; `null` for a whole run.
    package var interruptedBy: Nullable<String>
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
    /// Every mail type posted or registered, highest final posts/s first (the screen's default sort).
    package var mailTypes: [MailType]
    /// Every queue that delivered mail, longest wait first.
    package var queues: [Queue]
    /// The recent prunes, grouped by site, most first.
    package var prunes: [PruneGroup]
    /// Every finding seen during the run, ranked as the findings pane ranks them (`FindingLog.Entry.ranked`): leaks first,
    /// then over-subscription, slowness and churn; oldest first within each.
    package var findings: [FindingEntry]

    /// Nanoseconds in microseconds.
    static func micro(_ nanoseconds: UInt64) -> Double {
        Double(nanoseconds) / 1e3
    }

    /// JSON has no NaN or infinity: such a figure is reported as 0.
    static func finite(_ value: Double) -> Double {
        value.isFinite ? value : 0
    }

    /// Whether a finding of a category (`leak`, `oversubscription`, `slow`, `churn`) was seen during the run and
    /// not retracted; `nil` asks for any.
    package func hasFinding(category: String?) -> Bool {
        findings.contains { $0.counts && (category == nil || $0.category == category) }
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
            site: site.site.description, registeredFor: site.registeredFor, inherited: site.isInherited,
            kind: site.kind.word,
            recipientType: Nullable(site.objectType), queue: Nullable(site.queue), sender: site.sender.notation,
            recipients: site.recipients, growthTenSeconds: Nullable(site.growth10s),
            growthOneMinute: Nullable(site.growth1m), oldestSeconds: Nullable(site.oldestAge.map { Double($0) / 1e9 }),
            deliveries: site.deliveries, queueWaitP99Us: Nullable(site.queueWaitP99.map(Report.micro)),
            duplicates: site.duplicates,
            scopes: site.scopes.map {
                Report.Scope(
                    name: $0.name, leakedScopes: $0.leakedScopes, cleanScopes: $0.cleanScopes, outlived: $0.outlived)
            })
    }
}

extension Report.MailType {
    /// The entry of one mail type's statistics (counted over the run), with the sites of its recipients.
    init(_ stats: MailTypeStats, sites: [SiteRow]) {
        let requiredSender = sites.lazy.compactMap { $0.registrations.first?.recipient.info.requiredSender?.name }.first
        self.init(
            name: stats.name, posts: stats.posts, deliveries: stats.deliveries, pruned: stats.pruned,
            postsPerSecond: Report.finite(stats.postsPerSecond),
            deliveriesPerSecond: Report.finite(stats.deliveriesPerSecond),
            recipients: stats.receivingRecipients, ownRecipients: stats.recipients.total,
            inheritedRecipients: stats.inheritedRecipients, superclasses: stats.superclasses.map(\.name),
            verified: requiredSender != nil, requiredSender: Nullable(requiredSender),
            handlerTime: Report.Latency.of(stats.handlerLatency), queueWait: Report.Latency.of(stats.queueWait),
            sites: sites.map(Report.Site.init), relay: Nullable(stats.relay.map(Report.Relay.init)))
    }
}

extension Report.Queue {
    /// The entry of one queue's statistics.
    init(_ stats: QueueStats) {
        self.init(
            label: stats.label, deliveries: stats.deliveries,
            deliveriesPerSecond: Report.finite(stats.deliveriesPerSecond), backlog: Nullable(stats.backlog),
            wait: Report.Latency.of(stats.wait), mailTypes: stats.mailTypeNames, recipients: stats.recipients)
    }
}
