/// One character cell of a ``Grid``: a character and its role.
package struct Cell: Equatable, Sendable {
    /// The character shown; a space for an empty cell.
    package var scalar: Unicode.Scalar
    /// How it is shown.
    package var style: Style

    /// What the cell right of a wide character (CJK, most emoji) holds: the terminal draws that character over both
    /// cells, so this one is never drawn itself.
    package static let wideContinuation: Unicode.Scalar = "\u{0}"

    /// Whether the cell is the right half of a wide character.
    package var isWideContinuation: Bool { scalar == Self.wideContinuation }

    /// Creates a cell.
    package init(_ scalar: Unicode.Scalar = " ", style: Style = .normal) {
        self.scalar = scalar
        self.style = style
    }
}
