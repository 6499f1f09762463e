/// How a screen divides its body between its panes: the one place that says which panes a screen has, where, and in
/// what order. The renderer draws each pane where the layout places it, and Tab cycles through the same panes in the
/// same reading order (those with rows to select).
indirect enum ScreenLayout {
    /// One pane fills the area.
    case pane(Pane)
    /// `top` above `bottom`; `height` says how many rows `top` takes of the area.
    case stacked(ScreenLayout, ScreenLayout, height: (Rect, DrawContext) -> Int)
    /// `left` beside `right`; `width` says how many columns `left` takes of the area.
    case sideBySide(ScreenLayout, ScreenLayout, width: (Rect) -> Int)
    /// `wide` in an area at least `columns` wide, else `narrow`, which may leave out a pane that would not fit.
    case atLeast(columns: Int, wide: ScreenLayout, narrow: ScreenLayout)

    /// The panes in reading order, top to bottom and left to right: in their widest arrangement.
    var panes: [Pane] {
        switch self {
        case .pane(let pane): [pane]
        case .stacked(let top, let bottom, _): top.panes + bottom.panes
        case .sideBySide(let left, let right, _): left.panes + right.panes
        case .atLeast(_, let wide, _): wide.panes
        }
    }

    /// Where each pane goes in `area`, in reading order.
    func place(in area: Rect, _ context: DrawContext) -> [(pane: Pane, area: Rect)] {
        switch self {
        case .pane(let pane):
            return [(pane, area)]
        case .stacked(let top, let bottom, let height):
            let (upper, lower) = area.splitTop(height(area, context))
            return top.place(in: upper, context) + bottom.place(in: lower, context)
        case .sideBySide(let left, let right, let width):
            let (leftArea, rightArea) = area.splitLeft(width(area))
            return left.place(in: leftArea, context) + right.place(in: rightArea, context)
        case .atLeast(let columns, let wide, let narrow):
            return (area.width >= columns ? wide : narrow).place(in: area, context)
        }
    }
}

extension AppState.Screen {
    /// The screen's panes and where they go.
    var layout: ScreenLayout {
        switch self {
        case .overview:
            // Below 100 columns the recipients need the whole width (the drill-down still shows the latency), and the
            // prunes get half, so that their count fits beside a site.
            .stacked(
                .pane(.mailTypes),
                .stacked(
                    .atLeast(
                        columns: 100,
                        wide: .sideBySide(.pane(.recipients), .pane(.latency), width: { $0.width * 2 / 3 }),
                        narrow: .pane(.recipients)),
                    .sideBySide(
                        .pane(.prunes), .pane(.findings),
                        width: { $0.width < 100 ? $0.width / 2 : $0.width * 9 / 20 }),
                    height: { area, _ in area.height / 2 }),
                height: { area, context in max(7, min(context.mailTypeLines.count + 3, area.height * 2 / 5)) })
        case .mailType:
            .stacked(
                .pane(.recipients),
                .stacked(
                    .sideBySide(.pane(.latency), .pane(.prunes), width: { $0.width / 2 }),
                    .pane(.findings),
                    height: { area, _ in area.height * 3 / 5 }),
                height: { area, _ in area.height * 2 / 5 })
        case .queues:
            .stacked(
                .pane(.queues), .pane(.latency),
                height: { area, context in max(6, min(context.queues.count + 3, area.height * 3 / 5)) })
        }
    }
}
