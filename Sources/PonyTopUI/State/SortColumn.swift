/// A column the mail types table can be sorted by.
package enum SortColumn: String, Sendable, CaseIterable {
    /// The mail type's name.
    case name
    /// Posts per second.
    case postsPerSecond
    /// Deliveries per second.
    case deliveriesPerSecond
    /// Live recipients.
    case recipients
    /// Registrations pruned.
    case pruned
    /// Median handler time.
    case p50
    /// 99th percentile handler time.
    case p99

    /// The column heading.
    package var heading: String {
        switch self {
        case .name: "MAIL TYPE"
        case .postsPerSecond: "POSTS/S"
        case .deliveriesPerSecond: "DELIV/S"
        case .recipients: "RECIPS"
        case .pruned: "PRUNED"
        case .p50: "P50"
        case .p99: "P99"
        }
    }

    /// Whether `lhs` comes before `rhs` in ascending order.
    func ascending(_ lhs: MailTypeRow, _ rhs: MailTypeRow) -> Bool {
        switch self {
        case .name: lhs.name < rhs.name
        case .postsPerSecond: lhs.postsPerSecond < rhs.postsPerSecond
        case .deliveriesPerSecond: lhs.deliveriesPerSecond < rhs.deliveriesPerSecond
        case .recipients: lhs.recipients < rhs.recipients
        case .pruned: lhs.pruned < rhs.pruned
        case .p50: lhs.handlerLatency.p50 < rhs.handlerLatency.p50
        case .p99: lhs.handlerLatency.p99 < rhs.handlerLatency.p99
        }
    }
}
