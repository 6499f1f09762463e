/// A pane that shows its rows as a sortable ``Table``: the mail types, recipients, prunes and queues panes.
///
/// Everything that makes one table lives in the conforming type's file: its identity, title, columns, default sort,
/// the value a row sorts by in a column, and the cell a line shows in a column. Cells are looked up by column, never
/// by position, so that a column left out or moved can never show another column's value.
protocol TablePane {
    /// What the table sorts: a mail type, a site, a prune group, a queue.
    associatedtype Record
    /// One line of the table: a record, or one part of an expanded record.
    associatedtype Line

    /// The pane's identity, for focus, cursors, sorts and the columns a frame showed.
    static var pane: Pane { get }
    /// The pane's title, before what the pane adds to it.
    static var title: String { get }
    /// Every column the table can show, left to right.
    static var columns: [Column] { get }
    /// The order of the table before the user sorts it; the report's order too.
    static var defaultSort: SortOrder { get }
    /// A record's key, to break sort ties and to keep a frozen order.
    static func key(of record: Record) -> String
    /// The value a record sorts by in a column.
    static func sortKey(_ column: Column.ID, of record: Record) -> SortKey

    /// What the frame shows.
    var context: DrawContext { get }
    /// Creates the pane for one frame.
    init(context: DrawContext)
    /// The cell a line shows in a column.
    func cell(_ column: Column.ID, of line: Line) -> Table.Cell
    /// The style of a line's cells that do not choose their own.
    func style(of line: Line) -> Style
}

extension TablePane {
    func style(of line: Line) -> Style { .normal }

    /// `records` in the table's default order.
    static func inDefaultOrder(_ records: [Record]) -> [Record] {
        defaultSort.sorted(records, key: key(of:), value: { sortKey($1, of: $0) })
    }

    /// The table of `lines` in `columns`, each cell looked up by its column, sorted as the state says and with the
    /// state's selection.
    ///
    /// - Parameters:
    ///   - lines: The lines, in the order shown.
    ///   - keys: The lines' keys, to find the selected one.
    ///   - columns: The columns shown; ``columns`` unless the pane leaves one out or adds one.
    ///   - highlightsSelection: Whether the selected line is highlighted.
    ///   - emptyMessage: What to say when there are no lines.
    func table(
        _ lines: [Line], keys: [String], columns: [Column] = Self.columns, highlightsSelection: Bool,
        emptyMessage: String
    ) -> Table {
        Table(
            columns: columns,
            rows: lines.map { line in
                Table.Row(cells: columns.map { cell($0.id, of: line) }, style: style(of: line))
            },
            sort: context.state.isOrderFrozen ? nil : context.state.sortOrder(of: Self.pane),
            selected: context.selected(Self.pane, keys: keys), highlightsSelection: highlightsSelection,
            emptyMessage: emptyMessage, pane: Self.pane)
    }
}
