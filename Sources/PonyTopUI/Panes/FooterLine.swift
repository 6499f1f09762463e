/// The bottom line: the filter being typed, or the most useful keys.
struct FooterLine {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let state = context.state
        var x = rect.x
        if state.isEditingFilter {
            x += grid.write("filter: ", x: x, y: rect.y, style: .label)
            x += grid.write(state.filter, x: x, y: rect.y, style: .accent)
            grid.write(scalars: [context.glyphs.bar], x: x, y: rect.y, style: .accent)
            grid.write("  Enter keeps  Esc clears", x: x + 1, y: rect.y, style: .dim)
            return
        }
        let hints: [(String, String)] =
            switch state.screen {
            case .overview:
                [
                    ("q", "quit"), ("?", "help"), ("Enter", "drill in"), ("Tab", "pane"), ("s/S", "sort"),
                    ("/", "filter"), ("p", "pause"), ("P", "pause scenario"), ("+/-", "refresh"), ("r", "reset"),
                ]
            case .detail:
                [
                    ("q", "quit"), ("?", "help"), ("Esc", "back"), ("Tab", "pane"), ("p", "pause"),
                    ("P", "pause scenario"), ("r", "reset"),
                ]
            }
        for (key, meaning) in hints {
            let width = Text.width(key) + Text.width(meaning) + 2
            guard x + width <= rect.x + rect.width else { break }
            x += grid.write(key, x: x, y: rect.y, style: .accent)
            x += grid.write(" " + meaning + " ", x: x, y: rect.y, style: .dim)
        }
    }
}
