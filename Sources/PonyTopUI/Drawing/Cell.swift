/// One character cell of a ``Grid``: a character and its role.
package struct Cell: Equatable, Sendable {
    /// The character shown; a space for an empty cell.
    package var scalar: Unicode.Scalar
    /// How it is shown.
    package var style: Style

    /// Creates a cell.
    package init(_ scalar: Unicode.Scalar = " ", style: Style = .normal) {
        self.scalar = scalar
        self.style = style
    }
}
