/// The panes that can have the keyboard focus: the identity focus, cursors, sorts and frozen orders are kept by.
///
/// What a pane shows (title, rows, Enter, details; a table's columns, cells, sort keys and default sort) is its
/// type's: ``view`` names it. Where it goes on each screen is the screen's ``ScreenLayout``.
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

    /// The type that draws the pane.
    var view: any PaneView.Type {
        switch self {
        case .mailTypes: MailTypesPane.self
        case .recipients: RecipientsPane.self
        case .latency: LatencyPane.self
        case .prunes: PrunesPane.self
        case .findings: FindingsPane.self
        case .queues: QueuesPane.self
        }
    }

    /// The type that says what the pane's rows are and what Enter and details do with them; `nil` for the latency
    /// pane, which has no rows to select.
    var rows: (any RowsPane.Type)? { view as? any RowsPane.Type }

    /// The type that draws the pane's table; `nil` for the panes that are not tables.
    var table: (any TablePane.Type)? { rows as? any TablePane.Type }
}
