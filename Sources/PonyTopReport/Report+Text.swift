import PonyExpressMonitor

extension Report {
    /// The report as aligned text for people: the same sections as the JSON, with the screen's headings and units.
    package func text() -> String {
        var lines: [String] = []
        if let signal = interruptedBy.value {
            lines.append("PARTIAL REPORT: the run was cut short by \(signal); it covers the run up to then")
        }
        lines.append("\(tool) report: \(sourceText), \(Units.decimal(durationSeconds, places: 1)) s" + runText)
        lines.append(
            "totals over the run: posts \(totals.posts), deliveries \(totals.deliveries), skipped \(totals.skipped), "
                + "pruned \(totals.pruned), recipients \(totals.recipients)")
        if let lifetime = totals.appLifetime.value {
            lines.append(
                "totals since the monitor attached to the \(source.kind == .replay ? "recorded app" : "app"): posts \(lifetime.posts), deliveries "
                    + "\(lifetime.deliveries), skipped \(lifetime.skipped), pruned \(lifetime.pruned)")
        }
        lines.append("")
        lines += Self.table(MailType.textColumns, mailTypes)
        lines += relayText
        for type in mailTypes where !type.sites.isEmpty {
            lines.append("")
            lines.append(
                "recipients of \(type.name): \(type.recipients) at \(type.sites.count) site\(type.sites.count == 1 ? "" : "s")"
            )
            lines += Self.table(
                [
                    "  SITE", "RECIPIENT", "QUEUE", "SENDER", "RECIPIENTS", "+10S", "+1M", "OLDEST", "DELIVERIES",
                    "WAIT P99",
                ],
                type.sites.map { site in
                    [
                        "  " + site.site,
                        (site.recipientType.value ?? "block") + (site.inherited ? " via \(site.registeredFor)" : "")
                            + (site.duplicates > 0 ? " DUP" : ""),
                        site.queue.value ?? "sync", site.sender, String(site.recipients),
                        Self.growth(site.growthTenSeconds.value), Self.growth(site.growthOneMinute.value),
                        site.oldestSeconds.value.map { Units.age(UInt64(max(0, $0) * 1e9)) } ?? "-",
                        String(site.deliveries),
                        Self.duration(site.queueWaitP99Us.value),
                    ]
                }, text: [0, 1, 2, 3])
        }
        lines.append("")
        lines.append("queues: \(queues.count)")
        if !queues.isEmpty {
            lines += Self.table(
                ["  QUEUE", "BACKLOG", "DELIVERIES/S", "WAIT P50", "WAIT P99", "WAIT MAX", "RECIPIENTS", "MAIL TYPES"],
                queues.map { queue in
                    [
                        "  " + queue.label,
                        queue.backlog.value.map { Units.count(UInt64(max(0, $0.rounded()))) } ?? "-",
                        Units.compact(queue.deliveriesPerSecond), Self.duration(queue.wait.value?.p50Us),
                        Self.duration(queue.wait.value?.p99Us), Self.duration(queue.wait.value?.maxUs),
                        String(queue.recipients), queue.mailTypes.joined(separator: ", "),
                    ]
                }, text: [0, 7])
        }
        lines.append("")
        lines.append("pruned (recent): \(prunes.reduce(0) { $0 + $1.count })")
        if !prunes.isEmpty {
            lines += Self.table(
                ["  SITE", "RECIPIENT", "MAIL TYPE", "RECENT", "LIVED", "LAST"],
                prunes.map { group in
                    [
                        "  " + group.site, group.recipientType.value ?? "block", group.mailType, String(group.count),
                        Units.duration(UInt64(group.medianLifetimeSeconds * 1e9)),
                        Units.ago(UInt64(max(0, group.lastSecondsAgo) * 1e9)),
                    ]
                }, text: [0, 1, 2])
        }
        lines.append("")
        lines.append("findings seen during the run: \(findings.count)")
        for finding in findings {
            lines.append(
                "  \(finding.category.uppercased()) \(finding.kind) \(finding.mailType)"
                    + (finding.site.value.map { " at \($0)" } ?? "") + (finding.subject.value.map { " (\($0))" } ?? "")
                    + " [\(Self.stateText(finding))]")
            lines.append(
                "    first seen \(Units.clock(finding.firstSeenSecondsAgo)) before the end, last seen "
                    + "\(Units.clock(finding.lastSeenSecondsAgo)) before the end")
            if let retraction = finding.retraction.value { lines.append("    retracted: " + retraction) }
            lines.append("    " + finding.explanation)
            if !finding.evidence.isEmpty {
                lines.append(
                    "    evidence: "
                        + finding.evidence.map { "\($0.name) \($0.text)" }.joined(separator: ", "))
            }
            if finding.worstEvidence != finding.evidence, !finding.worstEvidence.isEmpty {
                lines.append(
                    "    at its worst: "
                        + finding.worstEvidence.map { "\($0.name) \($0.text)" }.joined(separator: ", "))
            }
        }
        // Names come from an app or a recording: their control characters are escaped, never printed.
        return lines.map(\.terminalSafe).joined(separator: "\n") + "\n"
    }

    /// The shared mail types' relay figures, as the mail types table's relay column and details show them; nothing
    /// when the run had no relay.
    private var relayText: [String] {
        let shared = mailTypes.compactMap { type in type.relay.value.map { (type.name, $0) } }
        guard !shared.isEmpty else { return [] }
        return [
            "",
            "relayed with other processes (counts over the run): \(shared.count) shared mail "
                + "type\(shared.count == 1 ? "" : "s")",
        ]
            + Self.table(
                ["  MAIL TYPE", "SENT", "RECEIVED", "DROPPED", "LAG P99"],
                shared.map { name, relay in
                    [
                        "  " + name, String(relay.sent), String(relay.received), String(relay.dropped),
                        Self.duration(relay.lagP99Us.value),
                    ]
                }, text: [0])
    }

    /// A finding's state at the end, as the text report and the findings pane say it.
    package static func stateText(_ finding: FindingEntry) -> String {
        switch finding.state {
        case .holding: "holding"
        case .noLongerHolding: "no longer holding"
        case .retracted: "retracted"
        }
    }

    /// Columns padded to their widest value, text left-aligned and numbers right-aligned, two spaces apart.
    /// A table of `rows` in `columns`.
    static func table<Row>(_ columns: [TextColumn<Row>], _ rows: [Row]) -> [String] {
        table(
            columns.map(\.heading), rows.map { row in columns.map { $0.cell(row) } },
            text: Set(columns.indices.filter { columns[$0].isText }))
    }

    static func table(_ headings: [String], _ rows: [[String]], text: Set<Int>) -> [String] {
        let widths = headings.indices.map { column in
            ([headings[column]] + rows.map { $0[column] }).map(\.unicodeScalars.count).max() ?? 0
        }
        return ([headings] + rows).map { row in
            var line = row.enumerated().map { column, value in
                let pad = String(repeating: " ", count: widths[column] - value.unicodeScalars.count)
                return text.contains(column) ? value + pad : pad + value
            }.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Microseconds as the screen writes durations, or `-`.
    static func duration(_ microseconds: Double?) -> String {
        microseconds.map { Units.duration(UInt64(($0 * 1e3).rounded())) } ?? "-"
    }

    /// A change in a count, or `-`.
    static func growth(_ value: Int?) -> String {
        value.map { $0 > 0 ? "+\($0)" : "\($0)" } ?? "-"
    }

    /// What the report watched, as its first line says it.
    private var sourceText: String {
        let pid = source.pid.value.map { " (pid \($0))" } ?? ""
        switch source.kind {
        case .scenario: return "scenario \(source.name)"
        case .attached: return "app \(source.name)\(pid)"
        case .replay: return "recording of \(source.name)\(pid)"
        }
    }

    /// A scenario's rate and seed; nothing for an app or a recording.
    private var runText: String {
        guard let rate = rate.value, let seed = seed.value else { return "" }
        return ", rate \(rate), seed \(seed)"
    }
}
