/// The panes that can have the keyboard focus: the identity focus, cursors, sorts and frozen orders are kept by.
///
/// What a table pane shows (title, columns, cells, sort keys, default sort) is its ``TablePane`` type's: ``table``
/// names it.
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

    /// The type that draws the pane's table; `nil` for the panes that are not tables.
    var table: (any TablePane.Type)? {
        switch self {
        case .mailTypes: MailTypesPane.self
        case .recipients: RecipientsPane.self
        case .prunes: PrunesPane.self
        case .queues: QueuesPane.self
        case .latency, .findings: nil
        }
    }
}
