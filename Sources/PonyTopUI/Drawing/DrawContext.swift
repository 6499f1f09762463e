import PonyExpress
import PonyExpressMonitor

/// What every pane reads while drawing one frame: the dashboard, the state and what follows from them.
struct DrawContext {
    let dashboard: Dashboard
    let state: AppState
    let glyphs: GlyphSet
    /// The mail types table's rows, filtered and sorted.
    let rows: [MailTypeRow]
    /// The mail type whose details are shown (drilled into, or selected).
    let mailType: TypeIdentity?
    /// The drilled-into mail type, `nil` on the overview.
    let detail: TypeIdentity?

    init(dashboard: Dashboard, state: AppState, glyphs: GlyphSet) {
        self.dashboard = dashboard
        self.state = state
        self.glyphs = glyphs
        rows = state.visibleMailTypes(in: dashboard)
        mailType = state.focusedMailType(in: rows)
        if case .detail(let type) = state.screen { detail = type } else { detail = nil }
    }

    func isFocused(_ pane: Pane) -> Bool { state.focus == pane && !state.isHelpShown }

    func duration(_ nanoseconds: UInt64) -> String { Units.duration(nanoseconds, micro: glyphs.micro) }

    /// The first item to show of a scrolling pane holding `count` items in `visible` rows.
    func scrollOffset(_ pane: Pane, count: Int, visible: Int) -> Int {
        min(state.scroll[pane, default: 0], max(0, count - visible))
    }
}
