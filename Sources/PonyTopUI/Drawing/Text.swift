/// Writing text that fits: cut with an ellipsis, padded or right-aligned.
enum Text {
    /// Writes `text` in at most `width` columns, cutting it with an ellipsis when it is longer: at the end, or at the
    /// start with `keepEnd` (for sites, whose file and line matter more than their module).
    ///
    /// - Returns: The columns written.
    @discardableResult
    static func write(
        _ text: String, in grid: inout Grid, x: Int, y: Int, width: Int, style: Style, glyphs: GlyphSet,
        rightAligned: Bool = false, keepEnd: Bool = false
    ) -> Int {
        guard width > 0 else { return 0 }
        let length = text.unicodeScalars.count
        if length <= width {
            return grid.write(text, x: rightAligned ? x + width - length : x, y: y, style: style)
        }
        if keepEnd {
            grid.write(scalars: [glyphs.ellipsis], x: x, y: y, style: style)
            grid.write(
                String(String.UnicodeScalarView(text.unicodeScalars.suffix(width - 1))), x: x + 1, y: y, style: style)
            return width
        }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(width - 1)))
        grid.write(kept, x: x, y: y, style: style)
        grid.write(scalars: [glyphs.ellipsis], x: x + width - 1, y: y, style: style)
        return width
    }

    /// The number of columns `text` takes.
    static func width(_ text: String) -> Int {
        text.unicodeScalars.count
    }
}
