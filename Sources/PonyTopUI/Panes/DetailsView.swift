/// Every field of the selected row, in full and wrapped: a mail type, a site with its registrations, one
/// registration, a prune group or prune, a finding with its evidence, or a queue. Nothing is cut here.
struct DetailsView {
    let context: DrawContext

    /// The title and the fields of the selected row of `pane`; a field with an empty name continues a list.
    func content(of pane: Pane) -> (title: String, fields: [(name: String, value: String)])? {
        guard let rows = pane.rows else { return nil }
        return content(rows)
    }

    /// The details of the selected row of a pane of a type.
    private func content<Rows: RowsPane>(_ rows: Rows.Type) -> (title: String, fields: [(name: String, value: String)])?
    {
        context.state.selected(Rows.self, in: context.dashboard).map { Rows(context: context).details(of: $0.line) }
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

    func draw(in grid: inout Grid, _ rect: Rect, pane: Pane) {
        let glyphs = context.glyphs
        let content = content(of: pane) ?? ("Details", [("", "the row is gone")])
        let inner = Border.draw(
            in: &grid, rect, title: content.title + " (Esc closes)", focused: true, glyphs: glyphs)
        guard inner.height > 0, inner.width > 10 else { return }
        let (nameWidth, lines) = lines(of: content, width: rect.width)
        let valueWidth = inner.width - nameWidth - 2
        grid.layout.detailsScrollLimit = max(0, lines.count - inner.height)
        let offset = min(context.state.detailsScroll, grid.layout.detailsScrollLimit)
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
