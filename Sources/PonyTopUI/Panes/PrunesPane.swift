import PonyExpressMonitor
import PonyTopModel

/// The columns of the prunes table.
package enum PruneColumn: String, TableColumn {
    case site, recipientType, mailType, pruned, lived, last
}

/// Dead weak references being pruned: the rate, then one row per site and recipient type (how many, how long they
/// lived, how recently); Enter expands a group into its prunes.
struct PrunesPane: ExpandingTablePane {
    typealias Record = PruneGroupRow
    typealias Line = PruneLine
    typealias ColumnID = PruneColumn

    static let pane = Pane.prunes
    static let title = "Pruned"

    static let columns = [
        Column(ColumnID.site, "SITE", .site, priority: 100, minimumWidth: 14),
        Column(ColumnID.recipientType, "RECIPIENT", .text, priority: 90, minimumWidth: 8),
        Column(ColumnID.mailType, "MAIL TYPE", .text, priority: 60, minimumWidth: 8),
        Column(ColumnID.pruned, "RECENT", .number, priority: 95),
        Column(ColumnID.lived, "LIVED", .number, priority: 80),
        Column(ColumnID.last, "LAST", .number, priority: 45),
    ]

    static let defaultSort = SortOrder(column: ColumnID.pruned, descending: true)

    /// The recent prunes grouped; in the drill-down, only the drilled-into mail type's.
    static func records(in dashboard: Dashboard, state: AppState) -> [PruneGroupRow] {
        PruneGroupRow.group(
            dashboard.prunes.filter { state.drilledMailType == nil || $0.mailType == state.drilledMailType })
    }

    static func sortKey(_ column: PruneColumn, of group: PruneGroupRow) -> SortKey {
        switch column {
        case .site: .location(group.site)
        case .recipientType: .text(group.recipientName)
        case .mailType: .text(group.mailType.name)
        case .pruned: .count(group.count)
        case .lived: .count(group.medianLifetime)
        // The newest first when ascending, as ages sort: the later the prune, the smaller its age.
        case .last: .number(-Double(group.newestTime))
        }
    }

    let context: DrawContext

    func cell(_ column: PruneColumn, of line: PruneLine) -> Table.Cell {
        let glyphs = context.glyphs
        switch line {
        case .record(let group, let isExpanded):
            return switch column {
            case .site:
                .text(group.site.description, prefix: group.expansionMark(isExpanded: isExpanded, glyphs: glyphs) + " ")
            case .recipientType: .text(group.recipientName)
            case .mailType: .text(group.mailType.name)
            case .pruned: .text(String(group.count))
            case .lived: .text(context.duration(group.medianLifetime))
            case .last: .text(context.ago(since: group.newestTime))
            }
        case .part(let prune, let group, let index):
            // One prune, under its group's site (the branch says so: repeating the site would cost the narrow pane
            // its RECENT column): its own recipient and mail type, counted once.
            return switch column {
            case .site: .text("", .dim, prefix: "  " + group.branch(toPart: index, glyphs: glyphs))
            case .recipientType: .text(prune.recipientName)
            case .mailType: .text(prune.mailType.name)
            case .pruned: .text("1")
            case .lived: .text(context.duration(prune.lifetime))
            case .last: .text(context.ago(since: prune.time))
            }
        }
    }

    func details(of line: PruneLine) -> (title: String, fields: [(name: String, value: String)]) {
        switch line {
        case .record(let group, _):
            let lifetimes = group.prunes.map(\.lifetime)
            return (
                "Pruned at \(group.site)",
                [
                    ("site", group.site.description), ("recipient", group.recipientName),
                    ("mail type", group.mailType.name),
                    ("released", group.reason.released),
                    ("recent prunes", String(group.count)),
                    (
                        "lived",
                        "median \(context.duration(group.medianLifetime)), shortest "
                            + "\(context.duration(lifetimes.min() ?? 0)), longest "
                            + "\(context.duration(lifetimes.max() ?? 0))"
                    ),
                    ("last", context.ago(since: group.newestTime)),
                    (
                        "meaning",
                        "objects registered here were released without unregistering; the post office removed "
                            + "their registrations when it next found them dead"
                    ),
                ]
            )
        case .part(let prune, let group, _):
            return (
                "Prune at \(prune.site)",
                [
                    ("site", prune.site.description), ("recipient", prune.recipientName),
                    ("mail type", prune.mailType.name),
                    ("released", prune.reason.released),
                    ("lived", context.duration(prune.lifetime)), ("pruned", context.ago(since: prune.time)),
                    ("group", "\(group.count) recent prunes at this site"),
                ]
            )
        }
    }

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let dashboard = context.dashboard
        var title = Self.title
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
        // In the drill-down every prune is of the one mail type: its column would say nothing.
        table(
            lines, columns: Self.columns.filter { context.detail == nil || $0.id != Column.ID(ColumnID.mailType) },
            highlightsSelection: context.isFocused(.prunes), emptyMessage: "nothing pruned"
        ).draw(
            in: &grid, frame: rect,
            inner: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1),
            glyphs: glyphs)
    }
}
