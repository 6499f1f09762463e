/// A record of an expanding table (``ExpandingTablePane``): a row that expands into its parts below it, as a site
/// into its registrations and a prune group into its prunes.
protocol ExpandingRecord: Keyed, Equatable, Sendable {
    /// What the record expands into.
    associatedtype Part: Equatable, Sendable

    /// The parts, in the order shown.
    var parts: [Part] { get }
    /// The key of the `index`-th part's line.
    func key(ofPart index: Int) -> String
}

extension ExpandingRecord {
    /// The mark before a record that has more than one part: whether it is expanded.
    func expansionMark(isExpanded: Bool, glyphs: GlyphSet) -> String {
        parts.count > 1 ? (isExpanded ? glyphs.expanded : glyphs.collapsed) : " "
    }

    /// The tree branch before the `index`-th part: the last part's closes the tree.
    func branch(toPart index: Int, glyphs: GlyphSet) -> String {
        index == parts.count - 1 ? glyphs.treeLast : glyphs.treeBranch
    }
}
