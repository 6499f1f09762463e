/// What a cell means on screen. The terminal picks colours and attributes by role, never by number, so a theme or
/// `NO_COLOR` changes the look without touching a pane.
package enum Style: UInt8, Sendable, CaseIterable {
    /// Ordinary text.
    case normal
    /// The top bar.
    case header
    /// A pane's title.
    case title
    /// The title of the pane that has the keyboard focus.
    case focusedTitle
    /// Column headings and field names.
    case label
    /// The selected row.
    case selection
    /// Something worth a look: duplicates, paused markers, findings about slowness.
    case warning
    /// A problem: leaks and over-subscription.
    case critical
    /// Secondary text: borders, sites, hints.
    case dim
    /// Numbers that matter most.
    case accent
    /// Sparklines and handler-time bars.
    case graph
    /// Queue-wait bars, told apart from handler time.
    case queue

    /// One letter per role, used in the style half of text snapshots (`.` for ordinary text).
    package var code: Character {
        switch self {
        case .normal: "."
        case .header: "H"
        case .title: "t"
        case .focusedTitle: "T"
        case .label: "l"
        case .selection: "S"
        case .warning: "w"
        case .critical: "c"
        case .dim: "d"
        case .accent: "a"
        case .graph: "g"
        case .queue: "q"
        }
    }
}
