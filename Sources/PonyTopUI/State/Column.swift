/// The columns of one table, as an enum of its own (``MailTypeColumn``, ``RecipientColumn``, ``PruneColumn``,
/// ``QueueColumn``): the table's cells and sort keys switch over exactly its columns, with no `default:`, so a column
/// added without its cell or its sort key does not compile.
package protocol TableColumn: RawRepresentable<String>, Hashable, Sendable {}

/// A column of one of ponytop's tables: what it holds, its heading, and how it behaves when space runs short.
package struct Column: Equatable, Sendable {
    /// A column of any table, by its case's name: what the table drawing, a sort order and the frame's layout hold,
    /// whichever table the column is of.
    package struct ID: Hashable, Sendable, CustomStringConvertible {
        /// The name of the table's column case.
        package let name: String

        /// The identity of one table's column.
        package init(_ column: some TableColumn) {
            name = column.rawValue
        }

        package var description: String { name }
    }

    /// How a column's values are laid out.
    package enum Content: Equatable, Sendable {
        /// Text, left-aligned, cut at the end when too long; it gets spare width.
        case text
        /// A source location, shortened from the module side so that the file name and line stay whole.
        case site
        /// A number, right-aligned, never cut.
        case number
        /// A sparkline; it gets spare width.
        case graph
    }

    /// The column.
    package let id: ID
    /// The heading.
    package let heading: String
    /// How values are laid out.
    package let content: Content
    /// Lower numbers are dropped first when the table is too narrow.
    package let priority: Int
    /// The narrowest a text column is cut to before columns are dropped.
    package let minimumWidth: Int

    /// Creates a column of a table.
    package init(
        _ column: some TableColumn, _ heading: String, _ content: Content, priority: Int, minimumWidth: Int = 6
    ) {
        self.id = ID(column)
        self.heading = heading
        self.content = content
        self.priority = priority
        self.minimumWidth = minimumWidth
    }

    /// Whether the table can be sorted by it.
    package var isSortable: Bool { content != .graph }

    /// Whether sorting by it starts with the largest value (numbers) rather than A to Z (text).
    package var sortsDescendingFirst: Bool { content == .number }
}
