import PonyExpress
import PonyExpressMonitor
import PonyTopModel

/// The columns of the mail types table.
package enum MailTypeColumn: String, TableColumn {
    case name, postsPerSecond, deliveriesPerSecond, recipients, pruned, p50, p99, waitP99, history, relay
}

/// The sortable table of mail types (or their class tree), with the selected row highlighted.
struct MailTypesPane: TablePane {
    typealias ColumnID = MailTypeColumn

    static let pane = Pane.mailTypes
    static let title = "Mail types"

    static let columns = [
        Column(ColumnID.name, "MAIL TYPE", .text, priority: 100, minimumWidth: 10),
        Column(ColumnID.postsPerSecond, "POSTS/S", .number, priority: 90),
        Column(ColumnID.deliveriesPerSecond, "DELIVERIES/S", .number, priority: 80),
        Column(ColumnID.recipients, "RECIPIENTS", .number, priority: 85),
        Column(ColumnID.pruned, "PRUNED", .number, priority: 50),
        Column(ColumnID.p50, "P50", .number, priority: 40),
        Column(ColumnID.p99, "P99", .number, priority: 60),
        Column(ColumnID.waitP99, "WAIT P99", .number, priority: 70),
        Column(ColumnID.history, "HISTORY", .graph, priority: 30, minimumWidth: 8),
    ]

    /// The column of relayed mail, shown last only while some mail type is shared with other processes: sent,
    /// received and dropped.
    static let relayColumn = Column(ColumnID.relay, "RELAY SENT/RCVD/DROP", .text, priority: 35, minimumWidth: 8)

    static let defaultSort = SortOrder(column: ColumnID.postsPerSecond, descending: true)

    static let enterHint = "drill in"

    /// The mail types shown: filtered by name, then sorted (or in their frozen order), and laid out as a class tree
    /// when the tree is shown.
    static func lines(in dashboard: Dashboard, state: AppState) -> [MailTypeLine] {
        let needle = state.filter.lowercased()
        let rows =
            needle.isEmpty ? dashboard.mailTypes : dashboard.mailTypes.filter { $0.name.lowercased().contains(needle) }
        let ordered = state.order(rows, by: Self.self)
        guard state.isTreeShown else { return ordered.map { MailTypeLine(row: $0, tree: []) } }
        return tree(ordered)
    }

    static func record(of line: MailTypeLine) -> MailTypeStats? { line.row }

    static func enter(on line: MailTypeLine?) -> EnterAction? { line.map { .drillIn($0.row.mailType) } }

    static func sortKey(_ column: MailTypeColumn, of row: MailTypeStats) -> SortKey {
        switch column {
        case .name, .history: .text(row.name)
        case .postsPerSecond: .number(row.postsPerSecond)
        case .deliveriesPerSecond: .number(row.deliveriesPerSecond)
        case .recipients: .count(row.receivingRecipients)
        case .pruned: .count(row.pruned)
        case .p50: row.handlerLatency.count == 0 ? .none : .count(row.handlerLatency.p50)
        case .p99: row.handlerLatency.count == 0 ? .none : .count(row.handlerLatency.p99)
        case .waitP99: row.queueWait.count == 0 ? .none : .count(row.queueWait.p99)
        case .relay: row.relay.map { .count(Int(clamping: $0.sent + $0.received)) } ?? .none
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

    func cell(_ column: MailTypeColumn, of line: MailTypeLine) -> Table.Cell {
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
        case .recipients: return .text(String(row.receivingRecipients))
        case .pruned: return .text(Units.count(row.pruned), row.pruned > 0 ? .warning : nil)
        case .p50: return .text(row.handlerLatency.count == 0 ? "-" : context.duration(row.handlerLatency.p50))
        case .p99: return .text(row.handlerLatency.count == 0 ? "-" : context.duration(row.handlerLatency.p99))
        case .waitP99: return .text(row.queueWait.count == 0 ? "-" : context.duration(row.queueWait.p99))
        case .history: return .graph(row.history)
        case .relay: return .text(row.relay.map { "\($0.sent)/\($0.received)/\($0.dropped)" } ?? "-")
        }
    }

    func details(of line: MailTypeLine) -> (title: String, fields: [(name: String, value: String)]) {
        let row = line.row
        let subclasses = context.dashboard.subclasses(of: row.mailType).map(\.name)
        return (
            "Mail type \(row.name)",
            [
                ("mail type", row.mailType.qualifiedName),
                (
                    "posts",
                    "\(row.posts) (\(Units.compact(row.postsPerSecond))/s)"
                        + (row.bridgedPosts > 0 ? ", \(row.bridgedPosts) bridged from NotificationCenter" : "")
                ),
                ("deliveries", "\(row.deliveries) (\(Units.compact(row.deliveriesPerSecond))/s)"),
                (
                    "recipients",
                    "\(row.receivingRecipients): \(row.recipients.total) registered for \(row.name), "
                        + "\(row.inheritedRecipients) for a superclass"
                ),
                ("pruned", String(row.pruned)),
                (
                    "superclasses",
                    row.superclasses.isEmpty ? "none" : row.superclasses.map(\.name).joined(separator: ", ")
                ),
                (
                    "subclasses",
                    subclasses.isEmpty
                        ? "none"
                        : subclasses.joined(separator: ", ") + " (their mail reaches "
                            + "recipients of \(row.name))"
                ),
                ("handler time", context.latency(row.handlerLatency)),
                ("queue wait", row.queueWait.count == 0 ? "none: no queued delivery" : context.latency(row.queueWait)),
            ] + relay(row.relay)
        )
    }

    /// The relay's figures of a shared mail type; nothing for one that is not shared.
    private func relay(_ figures: RelayFigures?) -> [(name: String, value: String)] {
        guard let figures else { return [] }
        let lag =
            figures.lagSamples == 0
            ? "none yet"
            : "p50 \(context.duration(figures.lagP50)), p99 \(context.duration(figures.lagP99)) "
                + "over the last \(figures.lagSamples)"
        return [
            ("relay", "\(figures.sent) sent, \(figures.received) received, \(figures.dropped) dropped"),
            ("relay lag", lag),
        ]
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
            lines, columns: Self.columns + (relayed ? [Self.relayColumn] : []),
            highlightsSelection: true, emptyMessage: message
        ).draw(in: &grid, frame: rect, inner: inner, glyphs: glyphs)
    }

    /// Rows as a forest: each under its nearest superclass among the rows, siblings in the given order.
    static func tree(_ rows: [MailTypeStats]) -> [MailTypeLine] {
        let present = Set(rows.map(\.mailType))
        var children: [TypeIdentity: [MailTypeStats]] = [:]
        var roots: [MailTypeStats] = []
        for row in rows {
            if let parent = row.superclasses.first(where: present.contains) {
                children[parent, default: []].append(row)
            } else {
                roots.append(row)
            }
        }
        var lines: [MailTypeLine] = []
        func visit(_ row: MailTypeStats, ancestors: [TreeMark], isLast: Bool, isRoot: Bool) {
            lines.append(MailTypeLine(row: row, tree: isRoot ? [] : ancestors + [isLast ? .lastBranch : .branch]))
            let below = children[row.mailType] ?? []
            let inherited: [TreeMark] = isRoot ? [] : ancestors + [isLast ? .blank : .through]
            for (index, child) in below.enumerated() {
                visit(child, ancestors: inherited, isLast: index == below.count - 1, isRoot: false)
            }
        }
        for root in roots { visit(root, ancestors: [], isLast: true, isRoot: true) }
        return lines
    }
}
