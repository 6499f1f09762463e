import PonyExpressMonitor

/// The order each table lists its records in before the user sorts it: the largest value of the table's default
/// column first, ties broken by the record's key. The report lists in these orders; each pane's default sort names
/// the same column, and `DefaultOrderTests` holds the two to the same order.
package enum DefaultOrder {
    /// Mail types, the busiest first: posts per second.
    package static func mailTypes(_ rows: [MailTypeStats]) -> [MailTypeStats] {
        largestFirst(rows, key: \.key) { .number($0.postsPerSecond) }
    }

    /// Sites, the most live recipients first.
    package static func sites(_ rows: [SiteRow]) -> [SiteRow] {
        largestFirst(rows, key: \.key) { .count($0.recipients) }
    }

    /// Queues, the longest 99th percentile wait first; a queue that delivered nothing last.
    package static func queues(_ rows: [QueueStats]) -> [QueueStats] {
        largestFirst(rows, key: \.key) { $0.wait.count == 0 ? .none : .count($0.wait.p99) }
    }

    /// Prune groups, the most prunes first.
    package static func pruneGroups(_ rows: [PruneGroupRow]) -> [PruneGroupRow] {
        largestFirst(rows, key: \.key) { .count($0.count) }
    }

    /// `rows` by `value`, largest first, then by `key`, as a table sorted by a column descending orders them.
    package static func largestFirst<Row>(
        _ rows: [Row], key: (Row) -> String, by value: (Row) -> SortKey
    ) -> [Row] {
        rows.map { (row: $0, value: value($0), key: key($0)) }
            .sorted { lhs, rhs in lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key < rhs.key }
            .map(\.row)
    }
}
