import PonyExpressMonitor
import PonyTopModel

/// The columns of the queues table.
package enum QueueColumn: String, TableColumn {
    case label, backlog, deliveriesPerSecond, waitP50, waitP99, waitMax, recipients, mailTypes
}

/// Every queue that delivered mail: its backlog, delivery rate and waits, and what it delivers.
struct QueuesPane: TablePane {
    typealias ColumnID = QueueColumn

    static let pane = Pane.queues
    static let title = "Queues"

    static let columns = [
        Column(ColumnID.label, "QUEUE", .text, priority: 100, minimumWidth: 8),
        Column(ColumnID.backlog, "BACKLOG", .number, priority: 95),
        Column(ColumnID.deliveriesPerSecond, "DELIVERIES/S", .number, priority: 80),
        Column(ColumnID.waitP50, "WAIT P50", .number, priority: 70),
        Column(ColumnID.waitP99, "WAIT P99", .number, priority: 90),
        Column(ColumnID.waitMax, "WAIT MAX", .number, priority: 60),
        Column(ColumnID.recipients, "RECIPIENTS", .number, priority: 50),
        Column(ColumnID.mailTypes, "MAIL TYPES", .text, priority: 40, minimumWidth: 10),
    ]

    static let defaultSort = SortOrder(column: ColumnID.waitP99, descending: true)

    /// Every queue, sorted.
    static func lines(in dashboard: Dashboard, state: AppState) -> [QueueStats] {
        state.order(dashboard.queues, by: Self.self)
    }

    static func sortKey(_ column: QueueColumn, of queue: QueueStats) -> SortKey {
        switch column {
        case .label: .text(queue.label)
        case .backlog: queue.backlog.map { .number($0) } ?? .none
        case .deliveriesPerSecond: .number(queue.deliveriesPerSecond)
        case .waitP50: queue.wait.count == 0 ? .none : .count(queue.wait.p50)
        case .waitP99: queue.wait.count == 0 ? .none : .count(queue.wait.p99)
        case .waitMax: queue.wait.count == 0 ? .none : .count(queue.wait.max)
        case .recipients: .count(queue.recipients)
        case .mailTypes: .text(queue.mailTypeNames.joined(separator: " "))
        }
    }

    let context: DrawContext

    func cell(_ column: QueueColumn, of queue: QueueStats) -> Table.Cell {
        let waits = queue.wait.count > 0
        return switch column {
        case .label: .text(queue.label)
        case .backlog: .text(queue.backlog.map { Units.count(UInt64(max(0, $0.rounded()))) } ?? "-")
        case .deliveriesPerSecond: .text(Units.compact(queue.deliveriesPerSecond))
        case .waitP50: .text(waits ? context.duration(queue.wait.p50) : "-")
        case .waitP99: .text(waits ? context.duration(queue.wait.p99) : "-")
        case .waitMax: .text(waits ? context.duration(queue.wait.max) : "-")
        case .recipients: .text(String(queue.recipients))
        case .mailTypes: .text(queue.mailTypeNames.joined(separator: ", "))
        }
    }

    func details(of queue: QueueStats) -> (title: String, fields: [(name: String, value: String)]) {
        (
            "Queue \(queue.label)",
            [
                ("queue", queue.label), ("backlog", queue.backlog.map { Units.compact($0) } ?? "unknown"),
                ("deliveries", "\(queue.deliveries) (\(Units.compact(queue.deliveriesPerSecond))/s)"),
                ("wait", context.latency(queue.wait)), ("recipients", String(queue.recipients)),
                ("mail types", queue.mailTypeNames.isEmpty ? "-" : queue.mailTypeNames.joined(separator: ", ")),
            ]
        )
    }

    func draw(in grid: inout Grid, _ rect: Rect) {
        let queues = context.queues
        let inner = Border.draw(
            in: &grid, rect, title: "\(Self.title) (\(queues.count))", focused: context.isFocused(.queues),
            glyphs: context.glyphs)
        table(
            queues, highlightsSelection: context.isFocused(.queues),
            emptyMessage: "no queued delivery yet: every recipient so far is synchronous"
        ).draw(in: &grid, frame: rect, inner: inner, glyphs: context.glyphs)
    }
}
