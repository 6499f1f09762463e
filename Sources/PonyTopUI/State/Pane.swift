/// The panes that can have the keyboard focus.
package enum Pane: String, Sendable, CaseIterable {
    /// The mail types table.
    case mailTypes
    /// The recipients of the shown mail type.
    case recipients
    /// The latency histogram.
    case latency
    /// Pruned weak references.
    case prunes
    /// The monitor's findings.
    case findings

    /// The pane's title.
    package var title: String {
        switch self {
        case .mailTypes: "Mail types"
        case .recipients: "Recipients"
        case .latency: "Latency"
        case .prunes: "Pruned weak references"
        case .findings: "Findings"
        }
    }
}
