import Foundation
import PonyExpressMonitor

/// The headless summary of a run (`ponytop --report text|json`): totals, every mail type, every finding.
///
/// The JSON form has stable snake_case keys, documented in README.md:
/// ```json
/// {"scenario": "app", "duration_seconds": 5, "rate": 1, "seed": 1,
///  "totals": {...}, "mail_types": [...], "findings": [...]}
/// ```
package struct Report: Codable, Equatable, Sendable {
    /// Counts over every mail type.
    package struct Totals: Codable, Equatable, Sendable {
        /// Counts since the monitor attached.
        package var posts, deliveries, skipped, pruned: UInt64
        /// Live registrations at the end.
        package var recipientsAlive: Int
        /// Rates over the last second.
        package var postsPerSecond, deliveriesPerSecond: Double
    }

    /// Latency percentiles in microseconds.
    package struct Latency: Codable, Equatable, Sendable {
        /// How many latencies were recorded.
        package var count: UInt64
        /// Percentiles and maximum in microseconds.
        package var p50Us, p90Us, p99Us, maxUs: Double

        init(_ summary: LatencySummary) {
            count = summary.count
            p50Us = Double(summary.p50) / 1e3
            p90Us = Double(summary.p90) / 1e3
            p99Us = Double(summary.p99) / 1e3
            maxUs = Double(summary.max) / 1e3
        }
    }

    /// One mail type.
    package struct MailType: Codable, Equatable, Sendable {
        /// The mail type's name.
        package var name: String
        /// Its counts.
        package var posts, deliveries, pruned: UInt64
        /// Its live registrations at the end.
        package var recipientsAlive: Int
        /// Handler run times.
        package var latency: Latency
        /// Waits before queued delivery.
        package var queueWait: Latency
    }

    /// One finding.
    package struct FindingEntry: Codable, Equatable, Sendable {
        /// The finding's kind, category (`leak`, `oversubscription`, `slow`, `churn`) and mail type.
        package var kind, category, mailType: String
        /// The registration site, if one is to blame.
        package var site: String?
        /// What tells it apart from others of its kind, type and site: a queue label, a recipient type or id.
        package var subject: String?
        /// One line saying what is wrong.
        package var explanation: String
        /// The numbers behind it.
        package var evidence: [EvidenceEntry]
    }

    /// One number behind a finding.
    package struct EvidenceEntry: Codable, Equatable, Sendable {
        /// What the number is, and its unit (`count`, `nanoseconds`, `perSecond`, `share`).
        package var name, unit: String
        /// The number.
        package var value: Double
    }

    /// The scenario that ran.
    package var scenario: String
    /// How long it ran, in seconds.
    package var durationSeconds: Double
    /// The rate factor it ran with.
    package var rate: Double
    /// The seed it ran with.
    package var seed: UInt64
    /// Counts over every mail type.
    package var totals: Totals
    /// Every mail type posted or registered.
    package var mailTypes: [MailType]
    /// Every finding, newest first.
    package var findings: [FindingEntry]

    /// Builds the report of a monitor snapshot.
    ///
    /// - Parameters:
    ///   - snapshot: The monitor's snapshot at the end of the run.
    ///   - scenario: The scenario's name.
    ///   - durationSeconds: How long it ran.
    ///   - rate: The rate factor.
    ///   - seed: The seed.
    package init(snapshot: MonitorSnapshot, scenario: String, durationSeconds: Double, rate: Double, seed: UInt64) {
        self.scenario = scenario
        self.durationSeconds = durationSeconds
        self.rate = rate
        self.seed = seed
        let totals = snapshot.totals
        self.totals = Totals(
            posts: totals.posts, deliveries: totals.deliveries, skipped: totals.skipped, pruned: totals.pruned,
            recipientsAlive: totals.recipientsAlive, postsPerSecond: Self.finite(totals.postsPerSecond),
            deliveriesPerSecond: Self.finite(totals.deliveriesPerSecond))
        mailTypes = snapshot.mailTypes.map { stats in
            MailType(
                name: stats.mailType.name, posts: stats.posts, deliveries: stats.deliveries, pruned: stats.pruned,
                recipientsAlive: stats.recipients.total, latency: Latency(stats.handlerLatency),
                queueWait: Latency(stats.queueWait))
        }
        findings = snapshot.findings.map { finding in
            FindingEntry(
                kind: finding.kind.rawValue, category: finding.category.rawValue, mailType: finding.mailType.name,
                site: finding.site?.description, subject: finding.subject, explanation: finding.explanation,
                evidence: finding.evidence.map { evidence in
                    EvidenceEntry(
                        name: evidence.name.rawValue, unit: evidence.unit.rawValue, value: Self.finite(evidence.value))
                })
        }
    }

    /// JSON has no NaN or infinity: such a rate is reported as 0.
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
        // Every field is a string, an integer or a finite number, so encoding cannot fail.
        let data = try! encoder.encode(self)
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes a report from ``json()``'s output.
    package static func decode(json: String) throws -> Report {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Report.self, from: Data(json.utf8))
    }

    /// The report as aligned text for people.
    package func text() -> String {
        var lines: [String] = []
        lines.append(
            "ponytop report: scenario \(scenario), \(Units.decimal(durationSeconds, places: 1)) s, rate \(rate), seed \(seed)"
        )
        lines.append(
            "totals: posts \(totals.posts), deliveries \(totals.deliveries), skipped \(totals.skipped), "
                + "pruned \(totals.pruned), recipients alive \(totals.recipientsAlive)")
        lines.append("")
        let nameWidth = max(9, mailTypes.map { $0.name.count }.max() ?? 0)
        let numbers = ["POSTS", "DELIVERIES", "RECIPIENTS", "PRUNED", "P50 us", "P90 us", "P99 us", "MAX us"]
        let widths = [10, 11, 10, 8, 9, 9, 9, 10]
        func row(_ name: String, _ values: [String]) -> String {
            name.padding(nameWidth)
                + zip(values, widths).map { value, width in
                    String(repeating: " ", count: max(1, width - value.count)) + value
                }.joined()
        }
        lines.append(row("MAIL TYPE", numbers))
        for type in mailTypes {
            let micro = { (value: Double) in Units.decimal(value, places: 1) }
            lines.append(
                row(
                    type.name,
                    [
                        String(type.posts), String(type.deliveries), String(type.recipientsAlive), String(type.pruned),
                        micro(type.latency.p50Us), micro(type.latency.p90Us), micro(type.latency.p99Us),
                        micro(type.latency.maxUs),
                    ]))
        }
        lines.append("")
        lines.append("findings: \(findings.count)")
        for finding in findings {
            lines.append(
                "  \(finding.category) \(finding.kind) \(finding.mailType) at \(finding.site ?? "-"): \(finding.explanation)"
            )
            if !finding.evidence.isEmpty {
                let evidence = finding.evidence.map { entry in
                    let unit = Evidence.Unit(rawValue: entry.unit) ?? .count
                    return Evidence(name: Evidence.Name(rawValue: entry.name), value: entry.value, unit: unit)
                        .description
                }
                lines.append("    evidence: " + evidence.joined(separator: ", "))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
