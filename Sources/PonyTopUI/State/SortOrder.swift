import PonyTopModel

/// How a table is sorted: by one column, largest or smallest first. Ties are broken by the row's key, so that equal
/// rows keep one order.
package struct SortOrder: Equatable, Sendable {
    /// The column.
    package var column: Column.ID
    /// Whether the largest value (or Z) comes first.
    package var descending: Bool

    /// Creates a sort order.
    package init(column: Column.ID, descending: Bool) {
        self.column = column
        self.descending = descending
    }

    /// Creates a sort order by one table's column.
    package init(column: some TableColumn, descending: Bool) {
        self.init(column: Column.ID(column), descending: descending)
    }

    /// `rows` in this order.
    func sorted<Row>(_ rows: [Row], key: (Row) -> String, value: (Row, Column.ID) -> SortKey) -> [Row] {
        rows.map { (row: $0, value: value($0, column), key: key($0)) }
            .sorted { lhs, rhs in
                if lhs.value != rhs.value { return descending ? lhs.value > rhs.value : lhs.value < rhs.value }
                return lhs.key < rhs.key
            }
            .map(\.row)
    }
}
