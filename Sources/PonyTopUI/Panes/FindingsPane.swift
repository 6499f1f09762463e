import PonyExpressMonitor

/// Leak, over-subscription and slowness findings, ranked by what to act on first (``FindingLog/Entry/ranked(_:)``): each names its kind, mail type and whole site, then
/// explains itself in up to three lines. Enter opens the selected one in full, with its evidence.
struct FindingsPane: RowsPane {
    static let pane = Pane.findings

    /// The pane's title, before what it is about.
    static let title = "Findings"

    let context: DrawContext

    /// The most lines of explanation a finding gets in the pane; details show the rest.
    static let explanationLines = 3

    /// The findings ranked by ``FindingLog/Entry/ranked(_:)``; in the drill-down, only the drilled-into mail type's.
    static func lines(in dashboard: Dashboard, state: AppState) -> [FindingLog.Entry] {
        FindingLog.Entry.ranked(
            dashboard.findings.filter { state.drilledMailType == nil || $0.finding.mailType == state.drilledMailType })
    }

    func details(of entry: FindingLog.Entry) -> (title: String, fields: [(name: String, value: String)]) {
        let finding = entry.finding
        var fields: [(name: String, value: String)] = [
            ("category", "\(finding.category.rawValue): \(Legend.meaning(ofCategory: finding.category))"),
            ("kind", finding.kind.rawValue + ": " + Legend.meaning(ofKind: finding.kind)),
            ("mail type", finding.mailType.name), ("site", finding.site?.description ?? "-"),
        ]
        if let subject = finding.subject { fields.append(("about", subject)) }
        fields += [
            ("first seen", context.ago(since: finding.firstSeen)),
            ("explanation", context.inGlyphs(finding.explanation)),
        ]
        for (index, evidence) in finding.evidence.enumerated() {
            fields.append(
                (
                    index == 0 ? "evidence" : "",
                    "\(evidence.name.rawValue): \(evidence.formattedValue(micro: context.glyphs.micro))"
                ))
        }
        return ("Finding: \(finding.kind.rawValue) of \(finding.mailType.name)", fields)
    }

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let findings = context.findings
        var title = "\(Self.title) (\(findings.count))"
        if let detail = context.detail { title = "\(Self.title) about \(detail.name) (\(findings.count))" }
        let focused = context.isFocused(.findings)
        let inner = Border.draw(in: &grid, rect, title: title, focused: focused, glyphs: glyphs)
        guard inner.height >= 1, inner.width >= 10 else { return }
        if findings.isEmpty {
            Text.write(
                "no findings", in: &grid, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: .dim,
                glyphs: glyphs)
            return
        }
        let blocks = findings.map { block($0, width: inner.width) }
        let selected = context.selected(.findings, keys: findings.map(\.key)) ?? 0
        var offset = 0
        while offset < selected, blocks[offset...selected].reduce(0, { $0 + $1.count }) > inner.height { offset += 1 }
        var y = inner.y
        var shown = 0
        for index in offset..<blocks.count {
            let first = y
            for line in blocks[index] where y < inner.y + inner.height {
                var x = inner.x + line.indent
                for (text, style) in line.parts {
                    x += Text.write(
                        text, in: &grid, x: x, y: y, width: inner.x + inner.width - x, style: style, glyphs: glyphs)
                }
                y += 1
            }
            if y > first { shown = index + 1 }
            if focused, index == selected {
                grid.restyle(Rect(x: inner.x, y: first, width: inner.width, height: y - first), as: .selection)
            }
            if y >= inner.y + inner.height { break }
        }
        if offset > 0 || shown < findings.count, rect.width > 20 {
            let range = " \(offset + 1)-\(shown) of \(findings.count) "
            grid.write(range, x: rect.x + rect.width - 2 - Text.width(range), y: rect.y + rect.height - 1, style: .dim)
        }
    }

    /// The lines of one finding at a width: the heading (with the site when it fits whole), the site on its own
    /// line when it does not, and the explanation.
    private func block(_ entry: FindingLog.Entry, width: Int) -> [(indent: Int, parts: [(String, Style)])] {
        let finding = entry.finding
        let category: Style = Legend.isProblem(category: finding.category) ? .critical : .warning
        var heading: [(String, Style)] = [
            (finding.category.rawValue.uppercased() + " ", category), (finding.kind.rawValue + " ", .label),
            (finding.mailType.name, .accent),
        ]
        var lines: [(indent: Int, parts: [(String, Style)])] = []
        if let site = finding.site?.description {
            let used = heading.reduce(0) { $0 + Text.width($1.0) }
            if used + 4 + Text.width(site) <= width {
                heading.append((" at " + site, .dim))
                lines.append((0, heading))
            } else {
                lines.append((0, heading))
                lines.append(
                    (2, [("at " + SitePath.fit(site, width: width - 5, mark: context.glyphs.pathEllipsis), .dim)]))
            }
        } else {
            lines.append((0, heading))
        }
        switch entry.state {
        case .holding: break
        case .noLongerHolding: lines.append((2, [("[no longer holding]", .dim)]))
        case .retracted(let reason): lines.append((2, [("[retracted: " + reason + "]", .dim)]))
        }
        var explanation = Text.wrap(
            context.inGlyphs(finding.explanation), width: width - 2, pathMark: context.glyphs.pathEllipsis)
        if explanation.count > Self.explanationLines {
            explanation = Array(explanation.prefix(Self.explanationLines))
            explanation[explanation.count - 1] += String(context.glyphs.ellipsis)
        }
        lines += explanation.map { (2, [($0, Style.normal)]) }
        return lines
    }
}
