import PonyExpressMonitor

/// Every field of the selected row, in full and wrapped: a mail type, a site with its registrations, one
/// registration, a prune group or prune, a finding with its evidence, or a queue. Nothing is cut here.
struct DetailsView {
    let context: DrawContext

    /// The title and the fields of the selected row of `pane`; a field with an empty name continues a list.
    func content(of pane: Pane) -> (title: String, fields: [(name: String, value: String)])? {
        switch pane {
        case .mailTypes:
            guard let index = context.selected(.mailTypes, keys: context.mailTypeLines.map(\.key)) else { return nil }
            return mailType(context.mailTypeLines[index].row)
        case .recipients:
            guard let index = context.selected(.recipients, keys: context.recipientLines.map(\.key)) else { return nil }
            switch context.recipientLines[index] {
            case .site(let site, _): return self.site(site)
            case .registration(let recipient, let site, _): return registration(recipient, site: site)
            }
        case .prunes:
            guard let index = context.selected(.prunes, keys: context.pruneLines.map(\.key)) else { return nil }
            switch context.pruneLines[index] {
            case .group(let group, _): return pruneGroup(group)
            case .prune(let prune, let group, _): return self.prune(prune, group: group)
            }
        case .findings:
            guard let index = context.selected(.findings, keys: context.findings.map(\.key)) else { return nil }
            return finding(context.findings[index])
        case .queues:
            guard let index = context.selected(.queues, keys: context.queues.map(\.key)) else { return nil }
            return queue(context.queues[index])
        case .latency:
            return nil
        }
    }

    private func latency(_ distribution: LatencyDistribution) -> String {
        guard distribution.count > 0 else { return "none" }
        return "p50 \(context.duration(distribution.p50)), p90 \(context.duration(distribution.p90)), "
            + "p99 \(context.duration(distribution.p99)), max \(context.duration(distribution.max)) "
            + "over \(distribution.count)"
    }

    private func mailType(_ row: MailTypeRow) -> (String, [(String, String)]) {
        let subclasses = context.dashboard.subclasses(of: row.mailType).map(\.name)
        return (
            "Mail type \(row.name)",
            [
                ("mail type", row.mailType.qualifiedName),
                (
                    "posts",
                    "\(row.posts) (\(Units.compact(row.postsPerSecond))/s)"
                        + (row.bridgedPosts > 0 ? ", \(row.bridgedPosts) bridged from NotificationCenter" : "")
                ),
                ("deliveries", "\(row.deliveries) (\(Units.compact(row.deliveriesPerSecond))/s)"),
                (
                    "recipients",
                    "\(row.recipients): \(row.ownRecipients) registered for \(row.name), "
                        + "\(row.inheritedRecipients) for a superclass"
                ),
                ("pruned", String(row.pruned)),
                (
                    "superclasses",
                    row.superclasses.isEmpty ? "none" : row.superclasses.map(\.name).joined(separator: ", ")
                ),
                (
                    "subclasses",
                    subclasses.isEmpty
                        ? "none"
                        : subclasses.joined(separator: ", ") + " (their mail reaches "
                            + "recipients of \(row.name))"
                ),
                ("handler time", latency(row.handlerLatency)),
                ("queue wait", row.queueWait.count == 0 ? "none: no queued delivery" : latency(row.queueWait)),
            ] + relay(row.relay)
        )
    }

    /// The relay's figures of a shared mail type; nothing for one that is not shared.
    private func relay(_ figures: RelayFigures?) -> [(String, String)] {
        guard let figures else { return [] }
        let lag =
            figures.lagSamples == 0
            ? "none yet"
            : "p50 \(context.duration(figures.lagP50)), p99 \(context.duration(figures.lagP99)) "
                + "over the last \(figures.lagSamples)"
        return [
            ("relay", "\(figures.sent) sent, \(figures.received) received, \(figures.dropped) dropped"),
            ("relay lag", lag),
        ]
    }

    private func site(_ site: SiteRow) -> (String, [(String, String)]) {
        var fields: [(String, String)] = [
            ("site", site.site),
            (
                "registered for",
                site.registeredFor
                    + (site.isInherited
                        ? " (a superclass of \(context.mailType?.name ?? "the mail type"): receives its mail as subclass mail)"
                        : "")
            ),
            (
                "recipient",
                site.kind == "block"
                    ? "a block, held strongly until unregistered"
                    : "\(site.objectType ?? "-") (an object, held weakly, and a method)"
            ),
            ("queue", site.queue ?? "none: synchronous, on the posting thread"),
            ("sender filter", Self.sender(site.sender)),
            ("recipients", "\(site.recipients) live"),
            ("growth", "\(context.growth(site.growth10s)) in 10 s, \(context.growth(site.growth1m)) in 1 min"),
            ("oldest", site.oldestAge.map { context.age($0) } ?? "-"),
            ("deliveries", String(site.deliveries)),
            ("queue wait p99", site.queue == nil ? "- (synchronous)" : context.duration(site.queueWaitP99)),
            ("duplicates", String(site.duplicates)),
        ]
        for (index, recipient) in site.registrations.enumerated() {
            var line = "#\(recipient.id), age \(context.age(recipient.age)), \(recipient.deliveries) deliveries"
            if recipient.isDuplicate { line += ", DUP" }
            if !recipient.markers.isEmpty { line += ", " + recipient.markers.joined(separator: ", ") }
            fields.append((index == 0 ? "registrations" : "", line))
        }
        return ("Site \(site.site)", fields)
    }

    private func registration(_ recipient: RecipientRow, site: SiteRow) -> (String, [(String, String)]) {
        (
            "Registration #\(recipient.id)",
            [
                ("id", String(recipient.id)), ("site", recipient.site), ("registered for", recipient.registeredFor),
                ("recipient", recipient.objectType ?? "block"),
                ("queue", recipient.queue ?? "none: synchronous, on the posting thread"),
                ("sender filter", Self.sender(recipient.sender)), ("age", context.age(recipient.age)),
                ("deliveries", String(recipient.deliveries)),
                (
                    "duplicate",
                    recipient.isDuplicate ? "yes: the same object is registered again for this mail type" : "no"
                ),
                ("markers", recipient.markers.isEmpty ? "none" : recipient.markers.joined(separator: ", ")),
                ("site's recipients", String(site.recipients)),
            ]
        )
    }

    private func pruneGroup(_ group: PruneGroupRow) -> (String, [(String, String)]) {
        let lifetimes = group.prunes.map(\.lifetime)
        return (
            "Pruned at \(group.site)",
            [
                ("site", group.site), ("recipient", group.recipientName), ("mail type", group.mailType.name),
                ("released", group.reason == "recipient" ? "the recipient object" : "the exact sender"),
                ("recent prunes", String(group.count)),
                (
                    "lived",
                    "median \(context.duration(group.medianLifetime)), shortest "
                        + "\(context.duration(lifetimes.min() ?? 0)), longest \(context.duration(lifetimes.max() ?? 0))"
                ),
                ("last", context.age(group.newestAge) + " ago"),
                (
                    "meaning",
                    "objects registered here were released without unregistering; the post office removed "
                        + "their registrations when it next found them dead"
                ),
            ]
        )
    }

    private func prune(_ prune: PruneRow, group: PruneGroupRow) -> (String, [(String, String)]) {
        (
            "Prune at \(prune.site)",
            [
                ("site", prune.site), ("recipient", prune.recipientName), ("mail type", prune.mailType.name),
                ("released", prune.reason == "recipient" ? "the recipient object" : "the exact sender"),
                ("lived", context.duration(prune.lifetime)), ("pruned", context.age(prune.age) + " ago"),
                ("group", "\(group.count) recent prunes at this site"),
            ]
        )
    }

    private func finding(_ finding: FindingRow) -> (String, [(String, String)]) {
        var fields: [(String, String)] = [
            ("category", "\(finding.category): \(Legend.meaning(ofCategory: finding.category))"),
            ("kind", finding.kind + ": " + Legend.meaning(ofKind: finding.kind)),
            ("mail type", finding.mailType.name), ("site", finding.site ?? "-"),
        ]
        if let subject = finding.subject { fields.append(("about", subject)) }
        fields += [("first seen", context.age(finding.age) + " ago"), ("explanation", finding.explanation)]
        for (index, evidence) in finding.evidence.enumerated() {
            fields.append((index == 0 ? "evidence" : "", "\(evidence.name): \(evidence.text)"))
        }
        return ("Finding: \(finding.kind) of \(finding.mailType.name)", fields)
    }

    private func queue(_ queue: QueueRow) -> (String, [(String, String)]) {
        (
            "Queue \(queue.label)",
            [
                ("queue", queue.label), ("backlog", queue.backlog.map { Units.compact($0) } ?? "unknown"),
                ("deliveries", "\(queue.deliveries) (\(Units.compact(queue.deliveriesPerSecond))/s)"),
                ("wait", latency(queue.wait)), ("recipients", String(queue.recipients)),
                ("mail types", queue.mailTypes.isEmpty ? "-" : queue.mailTypes.joined(separator: ", ")),
            ]
        )
    }

    /// A sender filter in words.
    static func sender(_ filter: String) -> String {
        if filter == "any" { return "any: every post, with or without a sender" }
        if filter.hasPrefix("=") { return filter + ": only posts from one exact \(filter.dropFirst()) instance" }
        if filter.hasSuffix("?") { return filter + ": posts without a sender or from a \(filter.dropLast())" }
        return filter + ": only posts from a \(filter)"
    }

    /// The wrapped lines of a pane's details in a frame `width` columns wide: a field's name on its first line.
    private func lines(
        of content: (title: String, fields: [(name: String, value: String)]), width: Int
    ) -> (
        nameWidth: Int, lines: [(String, String)]
    ) {
        let nameWidth = min(18, (content.fields.map { Text.width($0.name) }.max() ?? 0) + 2)
        let valueWidth = width - 2 - nameWidth - 2
        let lines = content.fields.flatMap { field -> [(String, String)] in
            Text.wrap(field.value, width: valueWidth).enumerated().map {
                ($0.offset == 0 ? field.name : "", $0.element)
            }
        }
        return (nameWidth, lines)
    }

    /// How far the details of `pane` scroll in a frame of a size: to where their last line is at the bottom.
    func maximumScroll(of pane: Pane, width: Int, height: Int) -> Int {
        let content = content(of: pane) ?? ("Details", [("", "the row is gone")])
        return max(0, lines(of: content, width: width).lines.count - (height - 2))
    }

    func draw(in grid: inout Grid, _ rect: Rect, pane: Pane) {
        let glyphs = context.glyphs
        let content = content(of: pane) ?? ("Details", [("", "the row is gone")])
        let inner = Border.draw(
            in: &grid, rect, title: content.title + " (Esc closes)", focused: true, glyphs: glyphs)
        guard inner.height > 0, inner.width > 10 else { return }
        let (nameWidth, lines) = lines(of: content, width: rect.width)
        let valueWidth = inner.width - nameWidth - 2
        let offset = min(context.state.detailsScroll, max(0, lines.count - inner.height))
        for (row, line) in lines.dropFirst(offset).prefix(inner.height).enumerated() {
            let y = inner.y + row
            Text.write(line.0, in: &grid, x: inner.x + 1, y: y, width: nameWidth, style: .label, glyphs: glyphs)
            grid.write(line.1, x: inner.x + 1 + nameWidth, y: y, style: .normal, limit: valueWidth)
        }
        if lines.count > inner.height {
            let range = " \(offset + 1)-\(min(lines.count, offset + inner.height)) of \(lines.count) "
            grid.write(range, x: rect.x + rect.width - 2 - Text.width(range), y: rect.y + rect.height - 1, style: .dim)
        }
    }
}
