/// The characters used for borders, graphs and markers: Unicode box drawing and blocks, or plain ASCII for
/// terminals and locales that cannot show them (`--ascii`, or no UTF-8 locale).
public struct GlyphSet: Sendable {
    /// Border pieces.
    public let horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight: Unicode.Scalar
    /// Sparkline levels from lowest to highest.
    public let levels: [Unicode.Scalar]
    /// A full bar cell.
    public let bar: Unicode.Scalar
    /// A full bar cell of the queue-wait series.
    public let queueBar: Unicode.Scalar
    /// Sort markers.
    public let ascending, descending: Unicode.Scalar
    /// Marks text that was cut.
    public let ellipsis: Unicode.Scalar
    /// Separates header fields.
    public let separator: String
    /// "At most", for bucket bounds.
    public let atMost: String
    /// The unit prefix for microseconds.
    public let micro: String

    /// Box drawing, block elements and `µ`.
    public static let unicode = GlyphSet(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        levels: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"], bar: "█", queueBar: "▒", ascending: "▲",
        descending: "▼", ellipsis: "…", separator: " · ", atMost: "≤", micro: "µ")

    /// Seven-bit ASCII only.
    public static let ascii = GlyphSet(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        levels: [".", ":", "-", "=", "+", "*", "#", "@"], bar: "#", queueBar: "=", ascending: "^",
        descending: "v", ellipsis: "~", separator: " | ", atMost: "<=", micro: "u")
}
