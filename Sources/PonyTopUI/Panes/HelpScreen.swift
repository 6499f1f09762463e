import PonyExpressMonitor

/// The help screen: the keys, built from the ``KeyMap``, then the legend of every column, marker and finding.
struct HelpScreen {
    let context: DrawContext

    /// The help text: a key or term, and what it does or means; an empty key starts a section.
    static func lines(glyphs: GlyphSet) -> [(keys: String, summary: String)] {
        var lines: [(String, String)] = [("", "Keys")]
        lines += KeyMap.bindings.map { ($0.label, $0.summary) }
        lines += [
            ("filter", "type to narrow the mail types; Backspace deletes, Enter keeps, Esc clears"),
            ("Ctrl-C", "quit at once; Ctrl-Z suspends (fg resumes)"),
            ("", ""), ("", "Legend"),
        ]
        lines += Legend.terms.map { ($0.term, $0.meaning) }
        lines += [
            (
                "\(glyphs.collapsed) \(glyphs.expanded)",
                "a site or prune group with several rows, collapsed or expanded (Enter)"
            ),
            (
                "\(glyphs.treeBranch) \(glyphs.treeLast)",
                "a subclass under its superclass in the class tree (t), or a registration under its site"
            ),
            (
                glyphs.notApplicable,
                "in a registration's row under its site: the column counts a whole site (its growth) and does not "
                    + "apply to one registration"
            ),
            (
                "\(glyphs.descending) \(glyphs.ascending)",
                "the column the table is sorted by, largest or smallest first; none while the order is frozen (f)"
            ),
        ]
        lines += [("", ""), ("", "Findings")]
        lines.append(
            (
                "order",
                "what to act on first: "
                    + FindingLog.Entry.rankedCategories.map { $0.rawValue.uppercased() }.joined(separator: ", then ")
                    + "; oldest first within each (a leak comes before the over-subscription it causes)"
            ))
        for category in FindingLog.Entry.rankedCategories {
            lines.append((category.rawValue.uppercased(), Legend.meaning(ofCategory: category)))
        }
        for kind in Finding.Kind.allCases {
            lines.append((kind.rawValue, "\(kind.category.rawValue): \(Legend.meaning(ofKind: kind))"))
        }
        return lines
    }

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let inner = Border.draw(
            in: &grid, rect, title: "Help: keys, legend and findings (Esc closes, Up/Down scroll)", focused: true,
            glyphs: glyphs)
        guard inner.height > 0 else { return }
        let wrapped = Self.wrapped(glyphs: glyphs, width: rect.width)
        let keyWidth = Self.keyWidth(glyphs: glyphs)
        grid.layout.helpScrollLimit = Self.maximumScroll(glyphs: glyphs, width: rect.width, height: rect.height)
        let offset = min(context.state.helpScroll, grid.layout.helpScrollLimit)
        for (row, line) in wrapped.dropFirst(offset).prefix(inner.height).enumerated() {
            let y = inner.y + row
            if line.isSection {
                Text.write(
                    line.text, in: &grid, x: inner.x + 1, y: y, width: inner.width - 1, style: .title, glyphs: glyphs)
                continue
            }
            Text.write(line.keys, in: &grid, x: inner.x + 1, y: y, width: keyWidth, style: .accent, glyphs: glyphs)
            Text.write(
                line.text, in: &grid, x: inner.x + 1 + keyWidth, y: y, width: inner.width - keyWidth - 1,
                style: .normal, glyphs: glyphs)
        }
        if wrapped.count > inner.height {
            let range = " \(offset + 1)-\(min(wrapped.count, offset + inner.height)) of \(wrapped.count) "
            grid.write(range, x: rect.x + rect.width - 2 - Text.width(range), y: rect.y + rect.height - 1, style: .dim)
        }
    }

    /// The width of the keys' column: the widest key that fits in 24 columns, and a gap of two.
    static func keyWidth(glyphs: GlyphSet) -> Int {
        min(24, lines(glyphs: glyphs).map { Text.width($0.keys) }.max()! + 2)
    }

    /// The help text as lines of a pane `width` columns wide (frame included); a key too long for its column gets
    /// a line of its own, so that it never runs into its text.
    static func wrapped(glyphs: GlyphSet, width: Int) -> [(keys: String, text: String, isSection: Bool)] {
        let keyWidth = keyWidth(glyphs: glyphs)
        return lines(glyphs: glyphs).flatMap { line -> [(keys: String, text: String, isSection: Bool)] in
            if line.keys.isEmpty { return [("", line.summary, true)] }
            let parts = Text.wrap(line.summary, width: max(10, width - 2 - keyWidth - 2))
            let own: [(keys: String, text: String, isSection: Bool)] =
                Text.width(line.keys) > keyWidth - 2 ? [(line.keys, "", false)] : []
            return own + parts.enumerated().map { (own.isEmpty && $0.offset == 0 ? line.keys : "", $0.element, false) }
        }
    }

    /// How far help scrolls in a pane of a size (frame included): to where its last line is at the bottom.
    package static func maximumScroll(glyphs: GlyphSet, width: Int, height: Int) -> Int {
        max(0, wrapped(glyphs: glyphs, width: width).count - (height - 2))
    }
}
