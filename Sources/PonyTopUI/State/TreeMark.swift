/// One indentation step in front of a row of a tree: drawing turns these into `│ `, `├─`, `└─` or spaces.
package enum TreeMark: Equatable, Sendable {
    /// An ancestor with more children below: a vertical line.
    case through
    /// An ancestor whose last child is above: blank.
    case blank
    /// This row, with siblings below.
    case branch
    /// This row, its parent's last child.
    case lastBranch
}
