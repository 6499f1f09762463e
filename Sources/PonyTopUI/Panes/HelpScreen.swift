/// The help screen, built from the ``KeyMap``.
struct HelpScreen {
    let context: DrawContext

    /// The help text, one line per binding, then notes.
    static func lines() -> [(keys: String, summary: String)] {
        KeyMap.bindings.map { ($0.label, $0.summary) } + [
            ("", ""),
            ("filter", "type to narrow the mail types; Backspace deletes, Enter keeps, Esc clears"),
            ("Ctrl-C", "quit at once; Ctrl-Z suspends (fg resumes)"),
        ]
    }

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let inner = Frame.draw(in: &grid, rect, title: "Help: keys (Esc closes)", focused: true, glyphs: glyphs)
        guard inner.height > 0 else { return }
        let lines = Self.lines()
        let keyWidth = lines.map { Text.width($0.keys) }.max()! + 2
        let offset = min(context.state.helpScroll, max(0, lines.count - inner.height))
        for (row, line) in lines.dropFirst(offset).prefix(inner.height).enumerated() {
            let y = inner.y + row
            Text.write(line.keys, in: &grid, x: inner.x + 1, y: y, width: keyWidth, style: .accent, glyphs: glyphs)
            Text.write(
                line.summary, in: &grid, x: inner.x + 1 + keyWidth, y: y, width: inner.width - keyWidth - 1,
                style: .normal, glyphs: glyphs)
        }
    }
}
