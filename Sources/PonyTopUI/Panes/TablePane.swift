import PonyTopModel

/// A pane that shows its rows as a sortable ``Table``: the mail types, recipients, prunes and queues panes.
///
/// Everything that makes one table lives in the conforming type's file: what ``RowsPane`` asks (identity, title,
/// rows, Enter, details), and its columns, default sort, the value a record sorts by in a column, and the cell a line
/// shows in a column. Cells are looked up by column, never by position, so that a column left out or moved can never
/// show another column's value.
protocol TablePane: RowsPane {
    /// What the table sorts: a mail type, a site, a prune group, a queue.
    associatedtype Record: Keyed
    /// The table's own columns.
    associatedtype ColumnID: TableColumn

    /// Every column the table can show, left to right.
    static var columns: [Column] { get }
    /// The order of the table before the user sorts it; the report's order too.
    static var defaultSort: SortOrder { get }
    /// The value a record sorts by in a column.
    static func sortKey(_ column: ColumnID, of record: Record) -> SortKey
    /// The record a line shows, `nil` for a line that shows one part of an expanded record: a frozen order keeps
    /// records.
    static func record(of line: Line) -> Record?

    /// The cell a line shows in a column.
    func cell(_ column: ColumnID, of line: Line) -> Table.Cell
    /// The style of a line's cells that do not choose their own.
    func style(of line: Line) -> Style
}

extension TablePane {
    func style(of line: Line) -> Style { .normal }

    /// `records` in the table's default order.
    static func inDefaultOrder(_ records: [Record]) -> [Record] {
        defaultSort.sorted(records, key: \.key, value: { sortKey(forColumn: $1, of: $0) })
    }

    /// The value a record sorts by in a column of any table: none for another table's column.
    static func sortKey(forColumn id: Column.ID, of record: Record) -> SortKey {
        ColumnID(rawValue: id.name).map { sortKey($0, of: record) } ?? .none
    }

    /// The cell a line shows in a column of any table: empty for another table's column.
    func cell(forColumn id: Column.ID, of line: Line) -> Table.Cell {
        ColumnID(rawValue: id.name).map { cell($0, of: line) } ?? .text("")
    }

    /// The table of `lines` in `columns`, each cell looked up by its column, sorted as the state says and with the
    /// state's selection.
    ///
    /// - Parameters:
    ///   - lines: The lines, in the order shown.
    ///   - columns: The columns shown; ``columns`` unless the pane leaves one out or adds one.
    ///   - highlightsSelection: Whether the selected line is highlighted.
    ///   - emptyMessage: What to say when there are no lines.
    func table(
        _ lines: [Line], columns: [Column] = Self.columns, highlightsSelection: Bool,
        emptyMessage: String
    ) -> Table {
        Table(
            columns: columns,
            rows: lines.map { line in
                Table.Row(cells: columns.map { cell(forColumn: $0.id, of: line) }, style: style(of: line))
            },
            sort: context.state.isOrderFrozen ? nil : context.state.sortOrder(of: Self.pane),
            selected: context.selected(Self.pane, keys: lines.map(\.key)), highlightsSelection: highlightsSelection,
            emptyMessage: emptyMessage, pane: Self.pane)
    }
}

extension TablePane where Line == Record {
    static func record(of line: Line) -> Record? { line }
}
