import PonyExpressMonitor

/// Dead weak references being pruned: a rate graph and the most recent prunes (type, site, lifetime).
struct PrunesPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let dashboard = context.dashboard
        let prunes = dashboard.recentPrunes.filter { context.detail == nil || $0.mailType == context.detail }
        var title = Pane.prunes.title
        if let detail = context.detail { title += " of \(detail.name)" }
        let inner = Frame.draw(in: &grid, rect, title: title, focused: context.isFocused(.prunes), glyphs: glyphs)
        guard inner.height >= 1, inner.width >= 4 else { return }
        var x = inner.x
        x += grid.write("rate ", x: x, y: inner.y, style: .label)
        x += grid.write("\(Units.compact(dashboard.prunesPerSecond))/s", x: x, y: inner.y, style: .accent)
        if let detail = context.detail, let row = dashboard.row(for: detail) {
            x += grid.write("  this type ", x: x, y: inner.y, style: .label)
            x += grid.write(Units.count(row.pruned), x: x, y: inner.y, style: .accent)
        } else {
            x += grid.write("  total ", x: x, y: inner.y, style: .label)
            x += grid.write(Units.count(dashboard.pruned), x: x, y: inner.y, style: .accent)
        }
        x += 1
        grid.write(
            scalars: Sparkline.render(dashboard.prunesHistory, width: inner.x + inner.width - x, glyphs: glyphs), x: x,
            y: inner.y, style: .graph)
        guard inner.height >= 3 else { return }
        var columns: [TableColumn] = [
            TableColumn(heading: "RECIPIENT TYPE", width: 10, flexible: true, priority: 90),
            TableColumn(heading: "SITE", width: 12, flexible: true, priority: 80),
            TableColumn(heading: "LIVED", width: 7, rightAligned: true, priority: 70),
        ]
        if context.detail == nil {
            columns.insert(TableColumn(heading: "MAIL TYPE", width: 9, flexible: true, priority: 60), at: 1)
        }
        let placed = TableColumn.fit(columns, width: inner.width)
        for (index, place) in placed.enumerated() {
            guard let place else { continue }
            Text.write(
                columns[index].heading, in: &grid, x: inner.x + place.x, y: inner.y + 1, width: place.width,
                style: .label, glyphs: glyphs, rightAligned: columns[index].rightAligned)
        }
        let visible = inner.height - 2
        if prunes.isEmpty {
            Text.write(
                "nothing pruned", in: &grid, x: inner.x + 1, y: inner.y + 2, width: inner.width - 1, style: .dim,
                glyphs: glyphs)
            return
        }
        let offset = context.scrollOffset(.prunes, count: prunes.count, visible: visible)
        for (line, prune) in prunes.dropFirst(offset).prefix(visible).enumerated() {
            var values = [prune.recipientType ?? "(\(prune.reason))", prune.site, context.duration(prune.lifetime)]
            if context.detail == nil { values.insert(prune.mailType.name, at: 1) }
            for (index, value) in values.enumerated() {
                guard let place = placed[index] else { continue }
                Text.write(
                    value, in: &grid, x: inner.x + place.x, y: inner.y + 2 + line, width: place.width,
                    style: columns[index].heading == "SITE" ? .dim : .normal, glyphs: glyphs,
                    rightAligned: columns[index].rightAligned, keepEnd: columns[index].heading == "SITE")
            }
        }
    }
}
