import PonyExpressMonitor

/// Every queue that delivered mail: its backlog, delivery rate and waits, and what it delivers.
struct QueuesPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let queues = context.queues
        let inner = Border.draw(
            in: &grid, rect, title: "\(Pane.queues.title) (\(queues.count))", focused: context.isFocused(.queues),
            glyphs: glyphs)
        let rows = queues.map { queue -> Table.Row in
            let waits = queue.wait.count > 0
            return Table.Row(cells: [
                .text(queue.label), .text(queue.backlog.map { Units.count(UInt64(max(0, $0.rounded()))) } ?? "-"),
                .text(Units.compact(queue.deliveriesPerSecond)),
                .text(waits ? context.duration(queue.wait.p50) : "-"),
                .text(waits ? context.duration(queue.wait.p99) : "-"),
                .text(waits ? context.duration(queue.wait.max) : "-"), .text(String(queue.recipients)),
                .text(queue.mailTypes.joined(separator: ", ")),
            ])
        }
        Table(
            columns: Pane.queues.columns, rows: rows,
            sort: context.state.isOrderFrozen ? nil : context.state.sortOrder(of: .queues),
            selected: context.selected(.queues, keys: queues.map(\.key)),
            highlightsSelection: context.isFocused(.queues),
            emptyMessage: "no queued delivery yet: every recipient so far is synchronous", pane: .queues
        ).draw(in: &grid, frame: rect, inner: inner, glyphs: glyphs)
    }
}
