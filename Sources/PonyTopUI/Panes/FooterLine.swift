/// The bottom line: the filter being typed, what the last key did, or the most useful keys of the screen.
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
        if let notice = state.notice {
            Text.write(notice, in: &grid, x: x, y: rect.y, width: rect.width, style: .warning, glyphs: context.glyphs)
            return
        }
        let hints: [(String, String)]
        if state.isHelpShown || state.details != nil {
            hints = [("Esc", "close"), ("Up/Down", "scroll"), ("q", "quit")]
        } else {
            let open = state.focus.rows?.enterHint ?? "open"
            let isReplay = context.dashboard.status.isReplay
            let pause = ("p", state.isDisplayPaused ? "resume" : "pause")
            var list: [(String, String)] = [("q", "quit"), ("?", "help")]
            // A replay's own keys come first, where the narrowest screen still shows them; `r` does not apply.
            if isReplay { list += [pause, (", .", "step"), ("[ ]", "jump")] }
            list += [("Enter", open), ("d", "details")]
            if state.focus == .findings { list.append(("s", "site")) }
            if state.screen != .overview { list.append(("Esc", "back")) }
            list += [
                ("Tab", "pane"), ("</>", "sort"), ("f", state.isOrderFrozen ? "unfreeze" : "freeze"),
                ("w", state.screen == .queues ? "overview" : "queues"), ("t", "tree"), ("/", "filter"),
            ]
            list += isReplay ? [("+/-", "interval")] : [pause, ("+/-", "interval"), ("r", "reset")]
            hints = list
        }
        for (key, meaning) in hints {
            let width = Text.width(key) + Text.width(meaning) + 2
            guard x + width <= rect.x + rect.width else { break }
            x += grid.write(key, x: x, y: rect.y, style: .accent)
            x += grid.write(" " + meaning + " ", x: x, y: rect.y, style: .dim)
        }
    }
}
