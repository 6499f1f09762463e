/// The panes that can have the keyboard focus.
package enum Pane: String, Sendable, CaseIterable {
    /// The mail types table.
    case mailTypes
    /// The registration sites of the shown mail type's recipients.
    case recipients
    /// The latency histogram.
    case latency
    /// Pruned weak references, grouped by site.
    case prunes
    /// The monitor's findings.
    case findings
    /// The queues view's table.
    case queues

    /// The pane's title.
    package var title: String {
        switch self {
        case .mailTypes: "Mail types"
        case .recipients: "Recipients"
        case .latency: "Latency"
        case .prunes: "Pruned"
        case .findings: "Findings"
        case .queues: "Queues"
        }
    }

    /// The mail types table's column of relayed mail, shown only while some mail type is shared with other
    /// processes: sent, received and dropped.
    package static let relayColumn = Column(.relay, "RELAY SENT/RCVD/DROP", .text, priority: 35, minimumWidth: 8)

    /// The columns of the pane's table, left to right; empty for panes that are not tables.
    package var columns: [Column] {
        switch self {
        case .mailTypes:
            [
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
        case .recipients:
            [
                Column(.site, "SITE", .site, priority: 100, minimumWidth: 14),
                Column(.recipientType, "RECIPIENT", .text, priority: 95, minimumWidth: 8),
                Column(.queue, "QUEUE", .text, priority: 60, minimumWidth: 5),
                Column(.sender, "SENDER", .text, priority: 40, minimumWidth: 5),
                Column(.recipients, "RECIPIENTS", .number, priority: 98),
                Column(.growth10s, "+10S", .number, priority: 90),
                Column(.growth1m, "+1M", .number, priority: 85),
                Column(.oldest, "OLDEST", .number, priority: 80),
                Column(.deliveries, "DELIVERIES", .number, priority: 45),
                Column(.waitP99, "WAIT P99", .number, priority: 65),
            ]
        case .prunes:
            [
                Column(.site, "SITE", .site, priority: 100, minimumWidth: 14),
                Column(.recipientType, "RECIPIENT", .text, priority: 90, minimumWidth: 8),
                Column(.mailType, "MAIL TYPE", .text, priority: 60, minimumWidth: 8),
                Column(.pruned, "RECENT", .number, priority: 95),
                Column(.lived, "LIVED", .number, priority: 80),
                Column(.last, "LAST", .number, priority: 45),
            ]
        case .queues:
            [
                Column(.label, "QUEUE", .text, priority: 100, minimumWidth: 8),
                Column(.backlog, "BACKLOG", .number, priority: 95),
                Column(.deliveriesPerSecond, "DELIVERIES/S", .number, priority: 80),
                Column(.waitP50, "WAIT P50", .number, priority: 70),
                Column(.waitP99, "WAIT P99", .number, priority: 90),
                Column(.waitMax, "WAIT MAX", .number, priority: 60),
                Column(.recipients, "RECIPIENTS", .number, priority: 50),
                Column(.mailTypes, "MAIL TYPES", .text, priority: 40, minimumWidth: 10),
            ]
        case .latency, .findings: []
        }
    }

    /// The column a pane's table is sorted by to start with, and whether largest first.
    package var defaultSort: SortOrder? {
        switch self {
        case .mailTypes: SortOrder(column: .postsPerSecond, descending: true)
        case .recipients: SortOrder(column: .recipients, descending: true)
        case .prunes: SortOrder(column: .pruned, descending: true)
        case .queues: SortOrder(column: .waitP99, descending: true)
        case .latency, .findings: nil
        }
    }
}
