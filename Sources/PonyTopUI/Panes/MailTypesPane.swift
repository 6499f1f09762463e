import PonyExpressMonitor

/// The sortable table of mail types (or their class tree), with the selected row highlighted.
struct MailTypesPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let state = context.state
        let lines = context.mailTypeLines
        let all = context.dashboard.mailTypes.count
        var title = "\(Pane.mailTypes.title) (\(lines.count)\(lines.count == all ? "" : " of \(all)"))"
        if state.isTreeShown { title += " as a class tree" }
        if !state.filter.isEmpty { title += " filter \"\(state.filter)\"" }
        let inner = Border.draw(in: &grid, rect, title: title, focused: context.isFocused(.mailTypes), glyphs: glyphs)
        let subclassCounts = Dictionary(
            lines.flatMap { $0.row.superclasses.map { ($0, 1) } }, uniquingKeysWith: +)
        let relayed = context.dashboard.mailTypes.contains { $0.relay != nil }
        let rows = lines.map { line -> Table.Row in
            let row = line.row
            var name = row.name
            if row.isBridged { name += " " + glyphs.bridged }
            if !state.isTreeShown, let count = subclassCounts[row.mailType] {
                name += " (+\(count) subclass\(count == 1 ? "" : "es"))"
            }
            var cells: [Table.Cell] = [
                .text(name, prefix: line.tree.isEmpty ? "" : glyphs.tree(line.tree) + " "),
                .text(Units.compact(row.postsPerSecond)), .text(Units.compact(row.deliveriesPerSecond)),
                .text(String(row.recipients)), .text(Units.count(row.pruned), row.pruned > 0 ? .warning : nil),
                .text(row.handlerLatency.count == 0 ? "-" : context.duration(row.handlerLatency.p50)),
                .text(row.handlerLatency.count == 0 ? "-" : context.duration(row.handlerLatency.p99)),
                .text(row.queueWait.count == 0 ? "-" : context.duration(row.queueWait.p99)), .graph(row.history),
            ]
            if relayed {
                cells.append(.text(row.relay.map { "\($0.sent)/\($0.received)/\($0.dropped)" } ?? "-"))
            }
            return Table.Row(cells: cells)
        }
        let message = context.dashboard.mailTypes.isEmpty ? "no mail yet" : "no mail type matches the filter"
        Table(
            columns: Pane.mailTypes.columns + (relayed ? [Pane.relayColumn] : []), rows: rows,
            sort: state.isOrderFrozen ? nil : state.sortOrder(of: .mailTypes),
            selected: context.selected(.mailTypes, keys: lines.map(\.key)), highlightsSelection: true,
            emptyMessage: message, pane: .mailTypes
        ).draw(in: &grid, frame: rect, inner: inner, glyphs: glyphs)
    }
}
