/// The one way ponytop draws a table (mail types, recipients, prunes, queues): headings with the sort marker,
/// columns as wide as their content needs, spare width to the text and graph columns, text cut only when the
/// screen is too narrow (sites from the module side), low-priority columns dropped last of all, the selected row
/// kept in view and highlighted, and the rows' range in the bottom border.
struct Table {
    /// One cell.
    enum Cell {
        /// Text, in the row's style unless given, after a prefix (a tree branch or an expansion marker) and before
        /// a suffix (a marker such as ` DUP×3`) that are never cut: when the column is too narrow, the text gives
        /// way, ending in an ellipsis.
        case text(String, Style? = nil, prefix: String = "", suffix: String = "")
        /// A sparkline of values, oldest first.
        case graph([Double])

        var width: Int {
            switch self {
            case .text(let text, _, let prefix, let suffix): Text.width(prefix) + Text.width(text) + Text.width(suffix)
            case .graph: 0
            }
        }

        /// The narrowest it can be cut to in a site column: its prefix, `…/` and the file name and line.
        var siteMinimum: Int {
            guard case .text(let text, _, let prefix, _) = self else { return 0 }
            let file = text.split(separator: "/").last.map(String.init) ?? text
            return Text.width(prefix) + Text.width(file) + (file == text ? 0 : 2)
        }

        /// The columns it takes in a site column `width` wide: its prefix and the site as ``SitePath`` shortens it.
        func siteWidth(in width: Int, mark: String) -> Int {
            guard case .text(let text, _, let prefix, let suffix) = self else { return 0 }
            let room = max(0, width - Text.width(prefix) - Text.width(suffix))
            return Text.width(prefix) + Text.width(SitePath.fit(text, width: room, mark: mark)) + Text.width(suffix)
        }

        /// The narrowest it can be cut to in a text column: its prefix and suffix whole, and room for the text's
        /// first characters and an ellipsis (or the whole text, when that is shorter).
        var textMinimum: Int {
            guard case .text(let text, _, let prefix, let suffix) = self, !suffix.isEmpty else { return 0 }
            return Text.width(prefix) + min(Text.width(text), Table.keptTextWidth) + Text.width(suffix)
        }
    }

    /// One row: its cells, one per column, and its style.
    struct Row {
        let cells: [Cell]
        var style: Style = .normal
    }

    let columns: [Column]
    let rows: [Row]
    /// The sort order, to mark its column's heading.
    let sort: SortOrder?
    /// The selected row, if any.
    let selected: Int?
    /// Whether the selected row is highlighted (the pane has the focus, or drives another pane).
    let highlightsSelection: Bool
    /// What to say when there are no rows.
    let emptyMessage: String
    /// The pane the table belongs to, to note in the grid which of its columns were shown.
    var pane: Pane?

    /// Draws the table inside a pane's frame.
    ///
    /// - Parameters:
    ///   - grid: The grid.
    ///   - frame: The pane's whole rectangle, border included: the rows' range goes in its bottom border.
    ///   - inner: The inside of the frame.
    ///   - glyphs: The characters to draw with.
    func draw(in grid: inout Grid, frame: Rect, inner: Rect, glyphs: GlyphSet) {
        guard inner.height >= 1, inner.width >= 4 else { return }
        var headings = columns.map(\.heading)
        // Every sortable heading keeps a place for the sort marker, so that no heading moves when the sort does.
        for index in columns.indices where columns[index].isSortable {
            let marker = (sort?.descending ?? true) ? glyphs.descending : glyphs.ascending
            headings[index] += sort?.column == columns[index].id ? String(marker) : " "
        }
        var needs = columns.indices.map { index in
            max(Text.width(headings[index]), rows.map { $0.cells[index].width }.max() ?? 0)
        }
        var minimums = columns.indices.map { index in
            let column = columns[index]
            switch column.content {
            case .site:
                return min(needs[index], max(column.minimumWidth, rows.map { $0.cells[index].siteMinimum }.max() ?? 0))
            case .text:
                let markers = rows.map { $0.cells[index].textMinimum }.max() ?? 0
                return min(needs[index], max(column.minimumWidth, markers))
            case .number, .graph: return needs[index]
            }
        }
        var placed = Self.layout(columns, needs: needs, minimums: minimums, width: inner.width)
        // A site cut to its column gives up its module side whole (`…/File.swift:9`), which often leaves part of the
        // column blank: when text beside it is cut, the site column takes only what its sites show, and the rest
        // goes to that text.
        let cutText = columns.indices.contains { index in
            columns[index].content == .text && placed[index].map { $0.width < needs[index] } == true
        }
        var narrowed = false
        for index in columns.indices where cutText && columns[index].content == .site {
            guard let place = placed[index], place.width < needs[index] else { continue }
            let shown = rows.map { $0.cells[index].siteWidth(in: place.width, mark: glyphs.pathEllipsis) }.max() ?? 0
            let used = max(Text.width(headings[index]), shown)
            guard used < place.width else { continue }
            needs[index] = used
            minimums[index] = min(minimums[index], used)
            narrowed = true
        }
        if narrowed { placed = Self.layout(columns, needs: needs, minimums: minimums, width: inner.width) }
        if let pane {
            grid.layout.shownColumns[pane] = columns.indices.filter { placed[$0] != nil }.map { columns[$0].id }
        }
        for (index, place) in placed.enumerated() {
            guard let place else { continue }
            let sorted = sort?.column == columns[index].id
            Text.write(
                headings[index], in: &grid, x: inner.x + place.x, y: inner.y, width: place.width,
                style: sorted ? .focusedTitle : .label, glyphs: glyphs, rightAligned: columns[index].content == .number)
        }
        let visible = inner.height - 1
        guard visible > 0 else { return }
        if rows.isEmpty {
            Text.write(
                emptyMessage, in: &grid, x: inner.x + 1, y: inner.y + 1, width: inner.width - 1, style: .dim,
                glyphs: glyphs)
            return
        }
        let offset = min(max(0, (selected ?? 0) - visible + 1), max(0, rows.count - visible))
        for (line, row) in rows.dropFirst(offset).prefix(visible).enumerated() {
            let y = inner.y + 1 + line
            for (index, place) in placed.enumerated() {
                guard let place else { continue }
                draw(
                    row.cells[index], of: columns[index], row: row, in: &grid, x: inner.x + place.x, y: y,
                    width: place.width, glyphs: glyphs)
            }
            if highlightsSelection, offset + line == selected {
                grid.restyle(Rect(x: inner.x, y: y, width: inner.width, height: 1), as: .selection)
            }
        }
        if rows.count > visible, frame.width > 20 {
            let range = " \(offset + 1)-\(min(rows.count, offset + visible)) of \(rows.count) "
            let x = frame.x + frame.width - 2 - Text.width(range)
            grid.write(range, x: x, y: frame.y + frame.height - 1, style: .dim)
        }
    }

    private func draw(
        _ cell: Cell, of column: Column, row: Row, in grid: inout Grid, x: Int, y: Int, width: Int, glyphs: GlyphSet
    ) {
        switch cell {
        case .graph(let values):
            grid.write(scalars: Sparkline.render(values, width: width, glyphs: glyphs), x: x, y: y, style: .graph)
        case .text(let text, let style, let prefix, let suffix):
            let style = style ?? row.style
            let x = x + grid.write(prefix, x: x, y: y, style: style, limit: width)
            let width = max(0, width - Text.width(prefix))
            if !suffix.isEmpty {
                // The marker stays whole at the text's end; the text before it gives way.
                let shown = min(Text.width(text), max(0, width - Text.width(suffix)))
                let written = Text.write(text, in: &grid, x: x, y: y, width: shown, style: style, glyphs: glyphs)
                grid.write(suffix, x: x + written, y: y, style: style, limit: max(0, width - written))
                return
            }
            switch column.content {
            case .site:
                grid.write(SitePath.fit(text, width: width, mark: glyphs.pathEllipsis), x: x, y: y, style: style)
            case .number:
                Text.write(text, in: &grid, x: x, y: y, width: width, style: style, glyphs: glyphs, rightAligned: true)
            case .text, .graph:
                Text.write(text, in: &grid, x: x, y: y, width: width, style: style, glyphs: glyphs)
            }
        }
    }

    /// Columns of at least this priority identify a row; they are cut or dropped only after the others are gone.
    static let essentialPriority = 90

    /// Columns of at least this priority are worth cutting text for: before they go, text columns give up what
    /// they need beyond ``comfortableTextWidth`` (at 80 columns, the mail types table keeps PRUNED and the
    /// recipients table `+1M`).
    static let valuablePriority = 50

    /// Columns of at least this priority are worth a site's module side (the recipients table's `+1M`, growth over
    /// a minute); the others go before a site is shortened.
    static let moduleWorthyPriority = 85

    /// The width a text column keeps while valuable columns still fit: a whole mail type or recipient name in most
    /// apps.
    static let comfortableTextWidth = 18

    /// How much of a text cut before a marker (` DUP×3`) is kept at the least: a few letters and the ellipsis.
    static let keptTextWidth = 5

    /// Places columns in `width` cells, one space apart, each as wide as it needs. When that is too wide, the
    /// columns of least value go first, lowest priority first; if the rest is still too wide, names longer than
    /// ``comfortableTextWidth`` are cut toward it, then columns below ``moduleWorthyPriority`` go, then sites give up
    /// their module side (down to `…/File.swift:line`), then the other columns that do not identify a row go. Among
    /// the columns kept, the cut is then made afresh in the same order (long names, then sites, then text toward its
    /// minimum, widest first); only then do identifying columns go. Dropped columns come back, most important first, where the room made
    /// lets them fit. Spare width goes to the graph column, else to the text columns.
    ///
    /// - Returns: For each column, its left edge and width, or `nil` when it was dropped.
    static func layout(_ columns: [Column], needs: [Int], minimums: [Int], width: Int) -> [(x: Int, width: Int)?] {
        var kept = Array(columns.indices)
        let natural = needs.enumerated().map { index, need in
            columns[index].content == .graph ? columns[index].minimumWidth : need
        }
        var widths = natural
        func total() -> Int { kept.reduce(0) { $0 + widths[$1] } + max(0, kept.count - 1) }
        func isText(_ index: Int) -> Bool { columns[index].content == .text || columns[index].content == .site }
        func byPriority(_ lhs: Int, _ rhs: Int) -> Bool {
            (columns[lhs].priority, -lhs) < (columns[rhs].priority, -rhs)
        }
        func shrink(_ candidates: (Int) -> Bool, to floor: (Int) -> Int = { minimums[$0] }) {
            while total() > width {
                let shrinkable = kept.filter { candidates($0) && widths[$0] > floor($0) }
                guard let widest = shrinkable.max(by: { (widths[$0], -$0) < (widths[$1], -$1) }) else { return }
                widths[widest] -= 1
            }
        }
        func drop(_ candidates: (Int) -> Bool) {
            while total() > width, kept.count > 1 {
                guard let lowest = kept.filter(candidates).min(by: byPriority) else { return }
                kept.removeAll { $0 == lowest }
            }
        }
        drop { columns[$0].priority < valuablePriority }
        shrink({ columns[$0].content == .text }, to: { max(minimums[$0], min(needs[$0], comfortableTextWidth)) })
        drop { columns[$0].priority < moduleWorthyPriority }
        shrink { columns[$0].content == .site }
        drop { columns[$0].priority < essentialPriority }
        // The columns to keep are chosen; the cut is made afresh among them, sites first, so that text is cut only
        // as far as it must be.
        widths = natural
        shrink({ columns[$0].content == .text }, to: { max(minimums[$0], min(needs[$0], comfortableTextWidth)) })
        shrink { columns[$0].content == .site }
        shrink(isText)
        drop { _ in true }
        for index in columns.indices.filter({ !kept.contains($0) }).sorted(by: byPriority).reversed()
        where total() + 1 + widths[index] <= width {
            kept.append(index)
            kept.sort()
        }
        var spare = max(0, width - total())
        // First give back what cut columns lost, most important first.
        for index in kept.sorted(by: { columns[$0].priority > columns[$1].priority }) where widths[index] < needs[index]
        {
            let share = min(spare, needs[index] - widths[index])
            widths[index] += share
            spare -= share
        }
        let graphs = kept.filter { columns[$0].content == .graph }
        let growing = graphs.isEmpty ? kept.filter(isText) : graphs
        for (offset, index) in growing.enumerated() {
            let share = spare / (growing.count - offset)
            widths[index] += share
            spare -= share
        }
        var x = 0
        var result = [(x: Int, width: Int)?](repeating: nil, count: columns.count)
        for index in kept {
            result[index] = (x, min(widths[index], max(0, width - x)))
            x += widths[index] + 1
        }
        return result
    }
}
