/// What draws a pane in the place its screen's ``ScreenLayout`` gives it: every pane, with rows to select
/// (``RowsPane``) or without (the latency pane).
protocol PaneView {
    /// Creates the pane for one frame.
    init(context: DrawContext)
    /// Draws the pane, border and title included, in `rect`.
    func draw(in grid: inout Grid, _ rect: Rect)
}
