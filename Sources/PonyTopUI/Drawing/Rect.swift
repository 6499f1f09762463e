/// A rectangle of cells: a pane's place on screen.
package struct Rect: Equatable, Sendable {
    /// Left column.
    package var x: Int
    /// Top row.
    package var y: Int
    /// Width in columns.
    package var width: Int
    /// Height in rows.
    package var height: Int

    /// Creates a rectangle; negative sizes are treated as empty.
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Whether it holds no cell.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// The rectangle shrunk by `amount` on every side.
    package func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// Splits off the top `rows` rows.
    ///
    /// - Returns: The top part and the rest.
    package func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let rows = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: rows),
            Rect(x: x, y: y + rows, width: width, height: height - rows)
        )
    }

    /// Splits off the left `columns` columns.
    ///
    /// - Returns: The left part and the rest.
    package func splitLeft(_ columns: Int) -> (left: Rect, rest: Rect) {
        let columns = min(max(0, columns), width)
        return (
            Rect(x: x, y: y, width: columns, height: height),
            Rect(x: x + columns, y: y, width: width - columns, height: height)
        )
    }
}
