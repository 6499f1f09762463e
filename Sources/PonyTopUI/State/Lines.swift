import PonyExpress
import PonyExpressMonitor
import PonyTopModel

/// A row of the mail types table, in the order shown, with its place in the class tree when the tree is shown.
package struct MailTypeLine: Equatable, Sendable, Keyed {
    /// The mail type.
    package let row: MailTypeStats
    /// Indentation, empty when the tree is not shown or for a root.
    package let tree: [TreeMark]

    /// The row's key.
    package var key: String { row.key }
}

/// A row of the recipients table: a site, or one registration of an expanded site.
typealias RecipientLine = ExpandingLine<SiteRow>

/// A row of the prunes table: a group of prunes, or one prune of an expanded group.
typealias PruneLine = ExpandingLine<PruneGroupRow>

extension SiteRow: ExpandingRecord {
    var parts: [ReceiverStats] { registrations }

    /// A registration's own key: its id.
    func key(ofPart index: Int) -> String { "#\(registrations[index].recipient.info.id.rawValue)" }
}

extension PruneGroupRow: ExpandingRecord {
    var parts: [PruneRecord] { prunes }

    /// The group's key and the prune's place in it: a prune has no key of its own.
    func key(ofPart index: Int) -> String { key + "#\(index)" }
}
