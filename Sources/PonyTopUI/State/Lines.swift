import PonyExpress

/// A row of the mail types table, in the order shown, with its place in the class tree when the tree is shown.
package struct MailTypeLine: Equatable, Sendable, Keyed {
    /// The mail type.
    package let row: MailTypeRow
    /// Indentation, empty when the tree is not shown or for a root.
    package let tree: [TreeMark]

    /// The row's key.
    package var key: String { row.key }
}

/// A row of the recipients table: a site, or one registration of an expanded site.
package enum RecipientLine: Equatable, Sendable, Keyed {
    /// A site: its registrations, counted.
    case site(SiteRow, isExpanded: Bool)
    /// One registration of an expanded site.
    case registration(RecipientRow, site: SiteRow, isLast: Bool)

    /// The row's key.
    package var key: String {
        switch self {
        case .site(let site, _): site.key
        case .registration(let recipient, _, _): recipient.key
        }
    }

    /// The site the row belongs to.
    package var site: SiteRow {
        switch self {
        case .site(let site, _), .registration(_, let site, _): site
        }
    }
}

/// A row of the prunes table: a group of prunes, or one prune of an expanded group.
package enum PruneLine: Equatable, Sendable, Keyed {
    /// A group of prunes from one site.
    case group(PruneGroupRow, isExpanded: Bool)
    /// One prune of an expanded group.
    case prune(PruneRow, group: PruneGroupRow, index: Int)

    /// The row's key.
    package var key: String {
        switch self {
        case .group(let group, _): group.key
        case .prune(_, let group, let index): group.key + "#\(index)"
        }
    }

    /// The group the row belongs to.
    package var group: PruneGroupRow {
        switch self {
        case .group(let group, _), .prune(_, let group, _): group
        }
    }
}
