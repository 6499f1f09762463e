/// One character cell of a ``Grid``: a character and its role.
public struct Cell: Equatable, Sendable {
    /// The character shown; a space for an empty cell.
    public var scalar: Unicode.Scalar
    /// How it is shown.
    public var style: Style

    /// Creates a cell.
    public init(_ scalar: Unicode.Scalar = " ", style: Style = .normal) {
        self.scalar = scalar
        self.style = style
    }
}
