/// Draws a pane's border and title.
enum Border {
    /// Draws a box around `rect` with a title in its top edge.
    ///
    /// - Returns: The inside of the box.
    @discardableResult
    static func draw(
        in grid: inout Grid, _ rect: Rect, title: String, focused: Bool, glyphs: GlyphSet
    ) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let right = rect.x + rect.width - 1
        let bottom = rect.y + rect.height - 1
        let border: Style = focused ? .focusedTitle : .dim
        grid.fill(
            Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: 1), with: glyphs.horizontal, style: border)
        grid.fill(
            Rect(x: rect.x + 1, y: bottom, width: rect.width - 2, height: 1), with: glyphs.horizontal, style: border)
        grid.fill(
            Rect(x: rect.x, y: rect.y + 1, width: 1, height: rect.height - 2), with: glyphs.vertical, style: border)
        grid.fill(
            Rect(x: right, y: rect.y + 1, width: 1, height: rect.height - 2), with: glyphs.vertical, style: border)
        grid[rect.x, rect.y] = Cell(glyphs.topLeft, style: border)
        grid[right, rect.y] = Cell(glyphs.topRight, style: border)
        grid[rect.x, bottom] = Cell(glyphs.bottomLeft, style: border)
        grid[right, bottom] = Cell(glyphs.bottomRight, style: border)
        let label = " " + title + " "
        Text.write(
            label, in: &grid, x: rect.x + 2, y: rect.y, width: rect.width - 4, style: focused ? .focusedTitle : .title,
            glyphs: glyphs)
        return rect.inset(by: 1)
    }
}
