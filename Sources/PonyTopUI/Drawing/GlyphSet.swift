/// The characters used for borders, graphs and markers: Unicode box drawing and blocks, or plain ASCII for
/// terminals and locales that cannot show them (`--ascii`, or no UTF-8 locale).
package struct GlyphSet: Sendable {
    /// Border pieces.
    package let horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight: Unicode.Scalar
    /// Sparkline levels from lowest to highest.
    package let levels: [Unicode.Scalar]
    /// A full bar cell.
    package let bar: Unicode.Scalar
    /// A full bar cell of the queue-wait series.
    package let queueBar: Unicode.Scalar
    /// Sort markers.
    package let ascending, descending: Unicode.Scalar
    /// Marks text that was cut.
    package let ellipsis: Unicode.Scalar
    /// Separates header fields.
    package let separator: String
    /// "At most", for bucket bounds.
    package let atMost: String
    /// The unit prefix for microseconds.
    package let micro: String
    /// Tree indentation: a row with siblings below, the last row, an ancestor with more children below.
    package let treeBranch, treeLast, treeThrough: String
    /// Marks a collapsed and an expanded group.
    package let collapsed, expanded: String
    /// Marks a mail type that a `NotificationCenter` bridge posts.
    package let bridged: String
    /// Fills a cell whose column does not apply to its row (a site's growth on one registration's row).
    package let notApplicable: String

    /// The text of a row's tree indentation.
    func tree(_ marks: [TreeMark]) -> String {
        marks.map { mark in
            switch mark {
            case .through: treeThrough
            case .blank: "  "
            case .branch: treeBranch
            case .lastBranch: treeLast
            }
        }.joined()
    }

    /// What stands for the folders left out of a cut path: the ellipsis, or in ASCII `...`, since a lone `~` before
    /// a slash reads as a home directory (`~/CellObserver.swift:10`).
    package var pathEllipsis: String {
        ellipsis.isASCII ? "..." : String(ellipsis)
    }

    /// Box drawing, block elements and `µ`.
    package static let unicode = GlyphSet(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        levels: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"], bar: "█", queueBar: "▒", ascending: "▲",
        descending: "▼", ellipsis: "…", separator: " · ", atMost: "≤", micro: "µ", treeBranch: "├─",
        treeLast: "└─", treeThrough: "│ ", collapsed: "▸", expanded: "▾", bridged: "⇄",
        notApplicable: "—")

    /// Seven-bit ASCII only.
    package static let ascii = GlyphSet(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        levels: [".", ":", "-", "=", "+", "*", "#", "@"], bar: "#", queueBar: "=", ascending: "^",
        descending: "v", ellipsis: "~", separator: " | ", atMost: "<=", micro: "u", treeBranch: "|-",
        treeLast: "`-", treeThrough: "| ", collapsed: "+", expanded: "-", bridged: "<>",
        notApplicable: "--")
}
