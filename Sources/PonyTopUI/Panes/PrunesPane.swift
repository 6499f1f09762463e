import PonyExpressMonitor

/// Dead weak references being pruned: the rate, then one row per site and recipient type (how many, how long they
/// lived, how recently); Enter expands a group into its prunes.
struct PrunesPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let dashboard = context.dashboard
        var title = Pane.prunes.title
        if let detail = context.detail { title += " of \(detail.name)" }
        title += " (recent)"
        let inner = Border.draw(in: &grid, rect, title: title, focused: context.isFocused(.prunes), glyphs: glyphs)
        guard inner.height >= 1, inner.width >= 4 else { return }
        // The rate, then every prune so far (of the drilled-into type, in the drill-down): the header's figure, not
        // the rows' recent ones.
        let total = context.detail.flatMap { dashboard.row(for: $0) }.map(\.pruned) ?? dashboard.pruned
        let parts: [(String, Style)] = [
            ("pruned/s ", .label), (Units.compact(dashboard.prunesPerSecond), .accent), ("  in all ", .label),
            (Units.count(total), .accent),
        ]
        var x = inner.x
        for (text, style) in parts {
            x += grid.write(text, x: x, y: inner.y, style: style, limit: max(0, inner.x + inner.width - x))
        }
        x += 1
        grid.write(
            scalars: Sparkline.render(dashboard.prunesHistory, width: inner.x + inner.width - x, glyphs: glyphs), x: x,
            y: inner.y, style: .graph)
        let lines = context.pruneLines
        let rows = lines.map { line -> Table.Row in
            switch line {
            case .group(let group, let isExpanded):
                let marker = group.count > 1 ? (isExpanded ? glyphs.expanded : glyphs.collapsed) : " "
                return Table.Row(cells: [
                    .text(group.site, prefix: marker + " "), .text(group.recipientName), .text(group.mailType.name),
                    .text(String(group.count)), .text(context.duration(group.medianLifetime)),
                    .text(context.age(group.newestAge) + " ago"),
                ])
            case .prune(let prune, let group, let index):
                let branch = index == group.count - 1 ? glyphs.treeLast : glyphs.treeBranch
                // One prune, under its group's site (the branch says so: repeating the site would cost the narrow
                // pane its RECENT column): its own recipient and mail type, counted once.
                return Table.Row(cells: [
                    .text("", .dim, prefix: "  " + branch), .text(prune.recipientName),
                    .text(prune.mailType.name), .text("1"), .text(context.duration(prune.lifetime)),
                    .text(context.age(prune.age) + " ago"),
                ])
            }
        }
        // In the drill-down every prune is of the one mail type: its column would say nothing.
        let shown = Pane.prunes.columns.indices.filter {
            context.detail == nil || Pane.prunes.columns[$0].id != .mailType
        }
        Table(
            columns: shown.map { Pane.prunes.columns[$0] },
            rows: rows.map { row in Table.Row(cells: shown.map { row.cells[$0] }, style: row.style) },
            sort: context.state.isOrderFrozen ? nil : context.state.sortOrder(of: .prunes),
            selected: context.selected(.prunes, keys: lines.map(\.key)),
            highlightsSelection: context.isFocused(.prunes), emptyMessage: "nothing pruned",
            pane: .prunes
        ).draw(
            in: &grid, frame: rect,
            inner: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1),
            glyphs: glyphs)
    }
}
