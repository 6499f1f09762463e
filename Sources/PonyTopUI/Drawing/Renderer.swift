/// Draws a frame: the panes of the current screen laid out in a grid of the terminal's size.
///
/// Drawing is a pure function of a ``Dashboard`` and an ``AppState``: it never changes either.
///
/// ```swift
/// let grid = Renderer(glyphs: .unicode).render(dashboard, state: state, width: 120, height: 40)
/// ```
package struct Renderer: Sendable {
    /// The smallest terminal the panes fit in.
    package static let minimumWidth = 80
    /// The smallest terminal the panes fit in.
    package static let minimumHeight = 24

    /// The rows around the panes: the header's two and the footer's one.
    package static let chromeHeight = 3

    /// The characters to draw with.
    package let glyphs: GlyphSet

    /// Creates a renderer.
    package init(glyphs: GlyphSet) {
        self.glyphs = glyphs
    }

    /// Draws one frame.
    ///
    /// - Parameters:
    ///   - dashboard: What to show.
    ///   - state: How to show it.
    ///   - width: The terminal's width in columns.
    ///   - height: The terminal's height in rows.
    /// - Returns: The finished grid.
    package func render(_ dashboard: Dashboard, state: AppState, width: Int, height: Int) -> Grid {
        var grid = Grid(width: width, height: height)
        guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
            drawTooSmall(in: &grid)
            return grid
        }
        let context = DrawContext(dashboard: dashboard, state: state, glyphs: glyphs)
        let (header, rest) = grid.bounds.splitTop(2)
        let (body, footer) = rest.splitTop(rest.height - 1)
        HeaderPane(context: context).draw(in: &grid, header)
        FooterLine(context: context).draw(in: &grid, footer)
        if state.isHelpShown {
            HelpScreen(context: context).draw(in: &grid, body)
            return grid
        }
        if let pane = state.details {
            DetailsView(context: context).draw(in: &grid, body, pane: pane)
            return grid
        }
        for (pane, area) in state.screen.layout.place(in: body, context) {
            pane.view.init(context: context).draw(in: &grid, area)
        }
        if state.isConfirmingReset {
            drawResetQuestion(in: &grid, body, scope: dashboard.status.resetScope)
        }
        return grid
    }

    /// The question `r` asks, saying what a reset clears, for whom, and what it keeps.
    private func drawResetQuestion(in grid: inout Grid, _ body: Rect, scope: SourceStatus.ResetScope) {
        let lines =
            switch scope {
            case .everything:
                [
                    "Reset the statistics?",
                    "",
                    "Clears counts, rates, histograms, the prune log and findings",
                    "(findings come back while they still hold), and restarts uptime.",
                    "Keeps the live recipients and every setting.",
                    "",
                    "y or r: reset      any other key: keep everything",
                ]
            case .viewerFindings:
                [
                    "Forget this viewer's findings?",
                    "",
                    "Findings come back while they still hold, first seen from now.",
                    "The attached app's counts, rates and histograms are its own: no",
                    "viewer resets them, nor its metrics or its finding log.",
                    "",
                    "y or r: forget      any other key: keep everything",
                ]
            case .appForEveryViewer:
                [
                    "Reset the attached app's statistics, for every viewer?",
                    "",
                    "Clears the app's monitor: counts, rates, histograms, the prune log,",
                    "findings (they come back while they still hold) and uptime, and the",
                    "totals its metrics report. Every ponytop attached to it sees the reset",
                    "(its agent is older than protocol 1.6). Keeps the live recipients.",
                    "",
                    "y or r: reset      any other key: keep everything",
                ]
            case .nothing: [String]()
            }
        let width = min(body.width - 4, (lines.map(Text.width).max() ?? 0) + 4)
        let height = min(body.height, lines.count + 2)
        let box = Rect(
            x: body.x + (body.width - width) / 2, y: body.y + (body.height - height) / 2, width: width, height: height)
        grid.fill(box)
        let inner = Border.draw(in: &grid, box, title: "Reset", focused: true, glyphs: glyphs)
        for (index, line) in lines.prefix(inner.height).enumerated() {
            Text.write(
                line, in: &grid, x: inner.x + 1, y: inner.y + index, width: inner.width - 1,
                style: index == 0 ? .title : .normal, glyphs: glyphs)
        }
    }

    /// What a terminal below the minimum shows: the size needed and the size now, wrapped to fit however small.
    private func drawTooSmall(in grid: inout Grid) {
        let lines = [
            "terminal too small: need \(Self.minimumWidth)x\(Self.minimumHeight)",
            "now \(grid.width)x\(grid.height); q quits",
        ].map { Text.wrap($0, width: max(1, grid.width)) }
        let count = lines.reduce(0) { $0 + $1.count }
        var y = max(0, (grid.height - count) / 2)
        for (index, wrapped) in lines.enumerated() {
            for line in wrapped {
                let x = max(0, (grid.width - Text.width(line)) / 2)
                grid.write(line, x: x, y: y, style: index == 0 ? .warning : .dim)
                y += 1
            }
        }
    }
}
