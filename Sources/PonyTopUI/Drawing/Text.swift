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
        let length = Self.width(text)
        if length <= width {
            return grid.write(text, x: rightAligned ? x + width - length : x, y: y, style: style)
        }
        if keepEnd {
            grid.write(scalars: [glyphs.ellipsis], x: x, y: y, style: style)
            var kept = String.UnicodeScalarView()
            var used = 0
            for scalar in text.unicodeScalars.reversed() {
                used += columns(of: scalar)
                if used > width - 1 { break }
                kept.insert(scalar, at: kept.startIndex)
            }
            grid.write(String(kept), x: x + width - Self.width(String(kept)), y: y, style: style)
            return width
        }
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            used += columns(of: scalar)
            if used > width - 1 { break }
            kept.append(scalar)
        }
        grid.write(String(kept), x: x, y: y, style: style)
        grid.write(scalars: [glyphs.ellipsis], x: x + width - 1, y: y, style: style)
        return width
    }

    /// The number of columns `text` takes: two for each wide character.
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    /// The columns a terminal gives a character: two for East Asian wide and full-width ones (CJK, Hangul, kana,
    /// full-width forms) and emoji, one otherwise.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            2
        default: 1
        }
    }

    /// `text` broken into lines of at most `width` columns, at spaces where it can be. A word longer than a line is
    /// split, except a path (`Module/File.swift:9`), which is never split: it is shortened from its start as a
    /// table's site column shortens it (``SitePath``), so that its file and line stay whole, to copy or grep.
    ///
    /// - Parameters:
    ///   - text: One paragraph.
    ///   - width: The columns of a line.
    ///   - pathMark: What stands for the folders a shortened path leaves out (``GlyphSet/pathEllipsis``).
    static func wrap(_ text: String, width: Int, pathMark: String = "…") -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            var word = word
            if word.unicodeScalars.count > width, word.contains("/") {
                word = SitePath.fit(word, width: width, mark: pathMark)
            }
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
