import PonyExpressMonitor

/// The sortable table of mail types, with the selected row highlighted.
struct MailTypesPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let state = context.state
        var title = "\(Pane.mailTypes.title) (\(context.rows.count)"
        if context.rows.count != context.dashboard.mailTypes.count {
            title += " of \(context.dashboard.mailTypes.count)"
        }
        title += ")"
        if !state.filter.isEmpty { title += " filter \"\(state.filter)\"" }
        let inner = Frame.draw(in: &grid, rect, title: title, focused: context.isFocused(.mailTypes), glyphs: glyphs)
        guard inner.height >= 1 else { return }
        let columns: [TableColumn] = [
            TableColumn(heading: SortColumn.name.heading, width: 14, flexible: true, priority: 100),
            TableColumn(heading: SortColumn.postsPerSecond.heading, width: 8, rightAligned: true, priority: 90),
            TableColumn(heading: SortColumn.deliveriesPerSecond.heading, width: 8, rightAligned: true, priority: 80),
            TableColumn(heading: SortColumn.recipients.heading, width: 7, rightAligned: true, priority: 70),
            TableColumn(heading: SortColumn.pruned.heading, width: 7, rightAligned: true, priority: 40),
            TableColumn(heading: SortColumn.p50.heading, width: 7, rightAligned: true, priority: 60),
            TableColumn(heading: SortColumn.p99.heading, width: 7, rightAligned: true, priority: 50),
            TableColumn(heading: "HISTORY", width: 10, flexible: true, priority: 30),
        ]
        let sortIndex = SortColumn.allCases.firstIndex(of: state.sortColumn)!
        var headings = columns.map(\.heading)
        headings[sortIndex] += String(state.sortDescending ? glyphs.descending : glyphs.ascending)
        let placed = TableColumn.fit(columns, width: inner.width)
        for (index, place) in placed.enumerated() {
            guard let place else { continue }
            Text.write(
                headings[index], in: &grid, x: inner.x + place.x, y: inner.y, width: place.width,
                style: index == sortIndex ? .focusedTitle : .label, glyphs: glyphs,
                rightAligned: columns[index].rightAligned)
        }
        let visible = inner.height - 1
        guard visible > 0 else { return }
        if context.rows.isEmpty {
            let message = context.dashboard.mailTypes.isEmpty ? "no mail yet" : "no mail type matches the filter"
            Text.write(
                message, in: &grid, x: inner.x + 1, y: inner.y + 1, width: inner.width - 1, style: .dim, glyphs: glyphs)
            return
        }
        let selectedIndex = context.rows.firstIndex { $0.mailType == context.mailType } ?? 0
        let offset = min(max(0, selectedIndex - visible + 1), max(0, context.rows.count - visible))
        for (line, row) in context.rows.dropFirst(offset).prefix(visible).enumerated() {
            let y = inner.y + 1 + line
            let values = [
                row.name, Units.compact(row.postsPerSecond), Units.compact(row.deliveriesPerSecond),
                String(row.recipients), Units.count(row.pruned),
                row.handlerLatency.count == 0 ? "-" : context.duration(row.handlerLatency.p50),
                row.handlerLatency.count == 0 ? "-" : context.duration(row.handlerLatency.p99),
            ]
            for (index, value) in values.enumerated() {
                guard let place = placed[index] else { continue }
                Text.write(
                    value, in: &grid, x: inner.x + place.x, y: y, width: place.width,
                    style: index == 4 && row.pruned > 0 ? .warning : .normal, glyphs: glyphs,
                    rightAligned: columns[index].rightAligned)
            }
            if let place = placed[7] {
                grid.write(
                    scalars: Sparkline.render(row.history, width: place.width, glyphs: glyphs), x: inner.x + place.x,
                    y: y, style: .graph)
            }
            if offset + line == selectedIndex {
                grid.restyle(Rect(x: inner.x, y: y, width: inner.width, height: 1), as: .selection)
            }
        }
    }
}
