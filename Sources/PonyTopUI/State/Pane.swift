/// The panes that can have the keyboard focus: the identity focus, cursors, sorts and frozen orders are kept by.
///
/// What a pane shows (title, rows, Enter, details; a table's columns, cells, sort keys and default sort) is its
/// ``RowsPane`` type's: ``rows`` names it.
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

    /// The type that says what the pane's rows are and what Enter and details do with them; `nil` for the latency
    /// pane, which has no rows to select.
    var rows: (any RowsPane.Type)? {
        switch self {
        case .mailTypes: MailTypesPane.self
        case .recipients: RecipientsPane.self
        case .prunes: PrunesPane.self
        case .findings: FindingsPane.self
        case .queues: QueuesPane.self
        case .latency: nil
        }
    }

    /// The type that draws the pane's table; `nil` for the panes that are not tables.
    var table: (any TablePane.Type)? { rows as? any TablePane.Type }
}
