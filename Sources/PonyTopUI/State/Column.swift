/// A column of one of ponytop's tables: what it holds, its heading, and how it behaves when space runs short.
package struct Column: Equatable, Sendable {
    /// Every column of every table. One word per concept: the same heading means the same thing in every table.
    package enum ID: String, Sendable, CaseIterable {
        case name, postsPerSecond, deliveriesPerSecond, recipients, pruned, p50, p99, waitP99, history
        case site, recipientType, queue, sender, growth10s, growth1m, oldest, deliveries
        case mailType, lived, last
        case label, backlog, waitP50, waitMax, mailTypes
        case relay
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

    /// Creates a column.
    package init(_ id: ID, _ heading: String, _ content: Content, priority: Int, minimumWidth: Int = 6) {
        self.id = id
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
