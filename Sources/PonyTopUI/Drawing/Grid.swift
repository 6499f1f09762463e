import PonyExpressMonitor

/// An in-memory screen: rows of ``Cell``s that panes draw into and that the terminal presents.
///
/// Drawing clips to the grid, so a pane never has to check the screen's edges. Tests compare ``text`` and
/// ``styleText`` with recorded snapshots.
///
/// ```swift
/// var grid = Grid(width: 20, height: 2)
/// grid.write("posts/s", x: 0, y: 0, style: .label)
/// print(grid.text)
/// ```
package struct Grid: Equatable, Sendable {
    /// Width in columns.
    package let width: Int
    /// Height in rows.
    package let height: Int
    /// The cells, row by row.
    package private(set) var cells: [Cell]
    /// What the panes drawn into it worked out that key handling reads: the columns shown, how far views scroll.
    package var layout = FrameLayout()

    /// Creates a grid of spaces.
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(), count: self.width * self.height)
    }

    /// The whole grid as a rectangle.
    package var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at a column and row.
    package subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes text from a column on a row, one column per Unicode scalar, clipped to the grid and to `limit` columns.
    ///
    /// - Parameters:
    ///   - text: What to write; control characters are shown escaped, as `\u{1B}` (see `String.terminalSafe`).
    ///   - x: The first column.
    ///   - y: The row.
    ///   - style: The role of every written cell.
    ///   - limit: At most this many columns are written.
    /// - Returns: The number of columns the text took (before clipping to the grid).
    @discardableResult
    package mutating func write(
        _ text: some StringProtocol, x: Int, y: Int, style: Style = .normal, limit: Int = .max
    )
        -> Int
    {
        var column = x
        var count = 0
        guard y >= 0, y < height else { return 0 }
        for scalar in text.unicodeScalars {
            guard !scalar.steersTerminal else {
                // A control character from a name is shown as its escape, never sent to the terminal.
                let escape = String(scalar).terminalSafe
                let written = write(escape, x: column, y: y, style: style, limit: limit - count)
                column += written
                count += written
                if written < escape.unicodeScalars.count { return count }
                continue
            }
            let columns = Text.columns(of: scalar)
            if count + columns > limit || column + columns > width { break }
            if column >= 0 {
                cells[y * width + column] = Cell(scalar, style: style)
                if columns == 2 { cells[y * width + column + 1] = Cell(Cell.wideContinuation, style: style) }
            }
            column += columns
            count += columns
        }
        return count
    }

    /// Writes scalars, as ``write(_:x:y:style:limit:)`` does for text.
    package mutating func write(scalars: [Unicode.Scalar], x: Int, y: Int, style: Style) {
        guard y >= 0, y < height else { return }
        for (offset, scalar) in scalars.enumerated() {
            let column = x + offset
            if column >= width { break }
            if column >= 0 { cells[y * width + column] = Cell(scalar, style: style) }
        }
    }

    /// Fills a rectangle with one character and role.
    package mutating func fill(_ rect: Rect, with scalar: Unicode.Scalar = " ", style: Style = .normal) {
        for row in max(0, rect.y)..<min(height, rect.y + rect.height) {
            for column in max(0, rect.x)..<max(max(0, rect.x), min(width, rect.x + rect.width)) {
                cells[row * width + column] = Cell(scalar, style: style)
            }
        }
    }

    /// Gives every cell of a rectangle a role, keeping its character (to highlight a selected row).
    package mutating func restyle(_ rect: Rect, as style: Style) {
        for row in max(0, rect.y)..<min(height, rect.y + rect.height) {
            for column in max(0, rect.x)..<max(max(0, rect.x), min(width, rect.x + rect.width)) {
                cells[row * width + column].style = style
            }
        }
    }

    /// The characters, one line per row, trailing spaces removed; a wide character is one character for its two
    /// cells.
    package var text: String {
        lines(blank: " ") { $0.scalar }
    }

    /// The roles, one line per row, one ``Style/code`` letter per cell, trailing ordinary cells removed.
    package var styleText: String {
        lines(blank: ".") { $0.style.code.unicodeScalars.first! }
    }

    private func lines(blank: Unicode.Scalar, _ transform: (Cell) -> Unicode.Scalar) -> String {
        var result = String.UnicodeScalarView()
        for row in 0..<height {
            var line = (0..<width).map { cells[row * width + $0] }.filter { !$0.isWideContinuation }.map(transform)
            while let last = line.last, last == blank { line.removeLast() }
            result.append(contentsOf: line)
            if row + 1 < height { result.append("\n") }
        }
        return String(result)
    }

    /// What a terminal is given for the cell at a column and row: `nil` for the right half of a wide character
    /// (drawn with its left half), and a space for half of one whose other half was drawn over, so that nothing
    /// after it shifts.
    package func presented(x: Int, y: Int) -> Unicode.Scalar? {
        let cell = self[x, y]
        if cell.isWideContinuation {
            let isRightHalf = x > 0 && Text.columns(of: self[x - 1, y].scalar) == 2
            return isRightHalf ? nil : " "
        }
        if Text.columns(of: cell.scalar) == 2, x + 1 >= width || !self[x + 1, y].isWideContinuation { return " " }
        return cell.scalar
    }

    /// The runs of same-styled cells of a row, left to right, for a terminal to draw one call per run.
    package func runs(inRow y: Int) -> [Run] {
        var result: [Run] = []
        guard y >= 0, y < height, width > 0 else { return result }
        let base = y * width
        var start = 0
        for column in 1...width where column == width || cells[base + column].style != cells[base + start].style {
            result.append(
                Run(x: start, style: cells[base + start].style, cells: cells[(base + start)..<(base + column)]))
            start = column
        }
        return result
    }

    /// Cells of one row that share a role.
    package struct Run: Sendable {
        /// The first column.
        package let x: Int
        /// The role of every cell.
        package let style: Style
        /// The cells.
        package let cells: ArraySlice<Cell>
    }
}
