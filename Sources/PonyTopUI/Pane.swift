/// The panes that can have the keyboard focus.
public enum Pane: String, Sendable, CaseIterable {
    case mailTypes, recipients, latency, prunes, findings

    /// The pane's title.
    public var title: String {
        switch self {
        case .mailTypes: "Mail types"
        case .recipients: "Recipients"
        case .latency: "Latency"
        case .prunes: "Pruned weak references"
        case .findings: "Findings"
        }
    }
}
