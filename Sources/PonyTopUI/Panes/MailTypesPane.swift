import PonyExpress
import PonyExpressMonitor

/// The sortable table of mail types (or their class tree), with the selected row highlighted.
struct MailTypesPane: TablePane {
    static let pane = Pane.mailTypes
    static let title = "Mail types"

    static let columns = [
        Column(.name, "MAIL TYPE", .text, priority: 100, minimumWidth: 10),
        Column(.postsPerSecond, "POSTS/S", .number, priority: 90),
        Column(.deliveriesPerSecond, "DELIVERIES/S", .number, priority: 80),
        Column(.recipients, "RECIPIENTS", .number, priority: 85),
        Column(.pruned, "PRUNED", .number, priority: 50),
        Column(.p50, "P50", .number, priority: 40),
        Column(.p99, "P99", .number, priority: 60),
        Column(.waitP99, "WAIT P99", .number, priority: 70),
        Column(.history, "HISTORY", .graph, priority: 30, minimumWidth: 8),
    ]

    /// The column of relayed mail, shown last only while some mail type is shared with other processes: sent,
    /// received and dropped.
    static let relayColumn = Column(.relay, "RELAY SENT/RCVD/DROP", .text, priority: 35, minimumWidth: 8)

    static let defaultSort = SortOrder(column: .postsPerSecond, descending: true)

    static func key(of record: MailTypeRow) -> String { record.key }

    static func sortKey(_ column: Column.ID, of row: MailTypeRow) -> SortKey {
        switch column {
        case .postsPerSecond: .number(row.postsPerSecond)
        case .deliveriesPerSecond: .number(row.deliveriesPerSecond)
        case .recipients: .count(row.recipients)
        case .pruned: .count(row.pruned)
        case .p50: row.handlerLatency.count == 0 ? .none : .count(row.handlerLatency.p50)
        case .p99: row.handlerLatency.count == 0 ? .none : .count(row.handlerLatency.p99)
        case .waitP99: row.queueWait.count == 0 ? .none : .count(row.queueWait.p99)
        case .relay: row.relay.map { .count(Int(clamping: $0.sent + $0.received)) } ?? .none
        default: .text(row.name)
        }
    }

    let context: DrawContext
    /// How many subclasses each mail type has among the lines, noted after its name when the tree is not shown.
    private let subclassCounts: [TypeIdentity: Int]

    init(context: DrawContext) {
        self.context = context
        subclassCounts = Dictionary(
            context.mailTypeLines.flatMap { $0.row.superclasses.map { ($0, 1) } }, uniquingKeysWith: +)
    }

    func cell(_ column: Column.ID, of line: MailTypeLine) -> Table.Cell {
        let row = line.row
        switch column {
        case .name:
            let glyphs = context.glyphs
            var name = row.name
            if row.isBridged { name += " " + glyphs.bridged }
            if !context.state.isTreeShown, let count = subclassCounts[row.mailType] {
                name += " (+\(count) subclass\(count == 1 ? "" : "es"))"
            }
            return .text(name, prefix: line.tree.isEmpty ? "" : glyphs.tree(line.tree) + " ")
        case .postsPerSecond: return .text(Units.compact(row.postsPerSecond))
        case .deliveriesPerSecond: return .text(Units.compact(row.deliveriesPerSecond))
        case .recipients: return .text(String(row.recipients))
        case .pruned: return .text(Units.count(row.pruned), row.pruned > 0 ? .warning : nil)
        case .p50: return .text(row.handlerLatency.count == 0 ? "-" : context.duration(row.handlerLatency.p50))
        case .p99: return .text(row.handlerLatency.count == 0 ? "-" : context.duration(row.handlerLatency.p99))
        case .waitP99: return .text(row.queueWait.count == 0 ? "-" : context.duration(row.queueWait.p99))
        case .history: return .graph(row.history)
        case .relay: return .text(row.relay.map { "\($0.sent)/\($0.received)/\($0.dropped)" } ?? "-")
        default: return .text("")
        }
    }

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let state = context.state
        let lines = context.mailTypeLines
        let all = context.dashboard.mailTypes.count
        var title = "\(Self.title) (\(lines.count)\(lines.count == all ? "" : " of \(all)"))"
        if state.isTreeShown { title += " as a class tree" }
        if !state.filter.isEmpty { title += " filter \"\(state.filter)\"" }
        let inner = Border.draw(in: &grid, rect, title: title, focused: context.isFocused(.mailTypes), glyphs: glyphs)
        let relayed = context.dashboard.mailTypes.contains { $0.relay != nil }
        let message = context.dashboard.mailTypes.isEmpty ? "no mail yet" : "no mail type matches the filter"
        table(
            lines, keys: lines.map(\.key), columns: Self.columns + (relayed ? [Self.relayColumn] : []),
            highlightsSelection: true, emptyMessage: message
        ).draw(in: &grid, frame: rect, inner: inner, glyphs: glyphs)
    }
}
