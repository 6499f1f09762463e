import PonyExpress
import PonyTopUI
import Testing

@Suite("Panes drawn into the grid, compared with recorded snapshots")
struct RendererTests {
    let renderer = Renderer(glyphs: .unicode)

    func state(_ change: (inout AppState) -> Void = { _ in }) -> AppState {
        var state = AppState()
        state.selected = DashboardFixture.cart
        change(&state)
        return state
    }

    @Test("the overview at the minimum size, 120x40 and 200x60", arguments: [(80, 24), (120, 40), (200, 60)])
    func overview(width: Int, height: Int) throws {
        let grid = renderer.render(DashboardFixture.busy(), state: state(), width: width, height: height)
        try SnapshotAssertion.check(grid, named: "overview-\(width)x\(height)")
        #expect(grid.text.contains("CartUpdated"))
    }

    @Test("the drill-down into one mail type", arguments: [(80, 24), (120, 40)])
    func detail(width: Int, height: Int) throws {
        let state = state { $0.screen = .detail(DashboardFixture.cart) }
        let grid = renderer.render(DashboardFixture.busy(), state: state, width: width, height: height)
        try SnapshotAssertion.check(grid, named: "detail-\(width)x\(height)")
        #expect(grid.text.contains("Recipients of CartUpdated (4, 1 duplicate)"))
        #expect(!grid.text.contains("Mail types"))
        #expect(!grid.text.contains("DownloadManager"), "prunes of other mail types are hidden in the drill-down")
    }

    @Test("the help screen")
    func help() throws {
        let grid = renderer.render(
            DashboardFixture.busy(), state: state { $0.isHelpShown = true }, width: 100, height: 30)
        try SnapshotAssertion.check(grid, named: "help-100x30")
    }

    @Test("typing a filter, with the display and the scenario paused")
    func filterAndPaused() throws {
        let state = state {
            $0.isEditingFilter = true
            $0.filter = "d"
            $0.isDisplayPaused = true
        }
        let grid = renderer.render(DashboardFixture.busy(paused: true), state: state, width: 120, height: 40)
        try SnapshotAssertion.check(grid, named: "filter-paused-120x40")
        #expect(grid.text.contains("[PAUSED] [SCENARIO PAUSED]"))
        #expect(grid.text.contains("filter: d"))
        #expect(!grid.text.contains("LoginEvent"))
    }

    @Test("ASCII glyphs and an empty post office")
    func asciiEmpty() throws {
        let grid = Renderer(glyphs: .ascii).render(DashboardFixture.empty, state: AppState(), width: 80, height: 24)
        try SnapshotAssertion.check(grid, named: "empty-ascii-80x24")
        #expect(grid.text.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(grid.text.contains("no mail yet"))
    }

    @Test("a terminal below the minimum says what it needs", arguments: [(79, 24), (80, 23), (40, 10)])
    func tooSmall(width: Int, height: Int) {
        let grid = renderer.render(DashboardFixture.busy(), state: state(), width: width, height: height)
        #expect(grid.text.contains("terminal too small: need 80x24"))
        #expect(!grid.text.contains("CartUpdated"))
    }

    @Test("the selected row is highlighted, and only that row")
    func selection() {
        let grid = renderer.render(DashboardFixture.busy(), state: state(), width: 120, height: 40)
        let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false)
        let styles = grid.styleText.split(separator: "\n", omittingEmptySubsequences: false)
        let highlighted = styles.indices.filter { styles[$0].contains("SSSSSSSSSS") }
        #expect(highlighted.count == 1)
        #expect(highlighted.first.map { lines[$0].contains("CartUpdated") } == true)
    }

    @Test("drawing is pure: the same input gives the same grid")
    func pure() {
        let first = renderer.render(DashboardFixture.busy(), state: state(), width: 120, height: 40)
        let second = renderer.render(DashboardFixture.busy(), state: state(), width: 120, height: 40)
        #expect(first == second)
    }
}
