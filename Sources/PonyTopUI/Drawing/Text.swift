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

    /// `text` broken into lines of at most `width` columns, at spaces where it can be; a word longer than a line is
    /// split.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            var word = word
            while word.unicodeScalars.count > width {
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                }
                lines.append(String(String.UnicodeScalarView(word.unicodeScalars.prefix(width))))
                word = String(String.UnicodeScalarView(word.unicodeScalars.dropFirst(width)))
            }
            if line.isEmpty {
                line = word
            } else if line.unicodeScalars.count + 1 + word.unicodeScalars.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
