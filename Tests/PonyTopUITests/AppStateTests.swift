import PonyExpress
import PonyExpressMonitor
import PonyTopUI
import Testing

@Suite("Key handling as state transitions")
struct AppStateTests {
    let dashboard = DashboardFixture.busy()

    func names(_ state: AppState, in dashboard: Dashboard? = nil) -> [String] {
        state.visibleMailTypes(in: dashboard ?? self.dashboard).map(\.name)
    }

    func press(_ keys: Key..., on state: inout AppState, dashboard: Dashboard? = nil) {
        for key in keys { _ = state.press(key, on: dashboard ?? self.dashboard) }
    }

    /// The selected row's key in a pane.
    func selected(_ pane: Pane, _ state: AppState) -> String? {
        state.selectedIndex(of: pane, in: dashboard).map { state.keys(of: pane, in: dashboard)[$0] }
    }

    @Test("keys act on the frame on the screen, whose layout the draw kept, and never draw one of their own")
    func keysReadTheFramesLayout() throws {
        var wide = AppState()
        (wide.terminalWidth, wide.terminalHeight) = (200, 60)
        let everyColumn = try #require(
            wide.draw(dashboard, with: Renderer(glyphs: .unicode)).layout.shownColumns[.mailTypes])
        var state = AppState()
        (state.terminalWidth, state.terminalHeight) = (80, 24)
        let frame = state.draw(dashboard, with: Renderer(glyphs: .unicode))
        #expect(state.layout == frame.layout)
        let shown = try #require(frame.layout.shownColumns[.mailTypes])
        #expect(Set(shown).isStrictSubset(of: Set(everyColumn)), "80 columns leave some out: \(shown)")
        // Keys, no frame between them: the sort steps through the columns that frame shows, and the layout stays.
        for _ in 0..<2 * everyColumn.count {
            _ = state.handle(.character(">"), dashboard: dashboard)
            let column = try #require(state.sortOrder(of: .mailTypes)?.column)
            #expect(shown.contains(column), "sorted by \(column), which the frame does not show")
        }
        #expect(state.layout == frame.layout, "a key changed the layout: it drew")
        // Help opened by a key scrolls once a frame has shown it, as far as that frame worked out.
        _ = state.handle(.character("?"), dashboard: dashboard)
        _ = state.handle(.end, dashboard: dashboard)
        #expect(state.helpScroll == 0, "no frame has shown help yet")
        let help = state.draw(dashboard, with: Renderer(glyphs: .unicode))
        #expect(help.layout.helpScrollLimit > 0)
        _ = state.handle(.end, dashboard: dashboard)
        #expect(state.helpScroll == help.layout.helpScrollLimit)
    }

    @Test("mail types are sorted by posts per second, largest first, to start with")
    func defaultSort() {
        #expect(
            names(AppState()) == [
                "CartUpdated", "DownloadProgress", "ScreenShown", "LoginEvent", "NetworkChanged", "FixtureEvent",
            ])
    }

    @Test("Down and j select the next row, Up and k the previous, without running off either end")
    func moving() {
        var state = AppState()
        #expect(state.focusedMailType(in: dashboard) == DashboardFixture.cart)
        press(.down, on: &state)
        #expect(state.focusedMailType(in: dashboard) == DashboardFixture.download)
        press(.character("j"), on: &state)
        #expect(state.focusedMailType(in: dashboard) == DashboardFixture.screen)
        press(.end, .down, on: &state)
        #expect(state.focusedMailType(in: dashboard) == DashboardFixture.event)
        press(.character("k"), on: &state)
        #expect(state.focusedMailType(in: dashboard) == DashboardFixture.network)
        press(.home, .up, on: &state)
        #expect(state.focusedMailType(in: dashboard) == DashboardFixture.cart)
    }

    @Test("the selection follows its row when rows re-sort, and f freezes the order until pressed again")
    func selectionFollowsAndFreezes() {
        var state = AppState()
        press(.down, on: &state)
        #expect(state.focusedMailType(in: dashboard) == DashboardFixture.download)
        var changed = dashboard
        changed.mailTypes[2] = changed.mailTypes[2].with(postsPerSecond: 99_999)
        #expect(names(state, in: changed).first == "DownloadProgress")
        #expect(state.focusedMailType(in: changed) == DashboardFixture.download, "the cursor stays on its row")
        press(.character("f"), on: &state)
        #expect(state.isOrderFrozen)
        #expect(names(state, in: changed) == names(state), "frozen: rows keep their places as values change")
        var grown = changed
        grown.mailTypes.append(DashboardFixture.row(mailType: TypeIdentity(Int.self), postsPerSecond: 1e9))
        #expect(names(state, in: grown).last == "Int", "a new row goes last while frozen")
        press(.character("f"), on: &state)
        #expect(!state.isOrderFrozen)
        #expect(names(state, in: grown).first == "Int")
    }

    @Test("< and > sort by the column to the left and right, I inverts, and sorting ends a freeze")
    func sorting() {
        var state = AppState()
        press(.character(">"), on: &state)
        #expect(
            state.sortOrder(of: .mailTypes) == SortOrder(column: MailTypeColumn.deliveriesPerSecond, descending: true))
        press(.character(">"), on: &state)
        #expect(state.sortOrder(of: .mailTypes)?.column == Column.ID(MailTypeColumn.recipients))
        #expect(names(state).prefix(2) == ["CartUpdated", "LoginEvent"])
        press(.character("I"), on: &state)
        #expect(names(state).prefix(2) == ["NetworkChanged", "DownloadProgress"])
        press(.character("<"), .character("<"), .character("<"), on: &state)
        #expect(
            state.sortOrder(of: .mailTypes) == SortOrder(column: MailTypeColumn.name, descending: false),
            "text sorts A to Z")
        #expect(names(state).first == "CartUpdated")
        press(.character("<"), on: &state)
        #expect(
            state.sortOrder(of: .mailTypes)?.column == Column.ID(MailTypeColumn.waitP99),
            "< from the first column wraps to the last")
        press(.character("f"), .character(">"), on: &state)
        #expect(!state.isOrderFrozen)
        #expect(state.notice == "row order follows the sort again")
    }

    @Test("each table sorts on its own: < and > act on the focused table")
    func sortingPerTable() {
        var state = AppState()
        press(.tab, on: &state)
        #expect(state.focus == .recipients)
        #expect(state.keys(of: .recipients, in: dashboard).first == DashboardFixture.cartSites[3].key, "most first")
        press(.character(">"), on: &state)
        #expect(state.sortOrder(of: .recipients)?.column == Column.ID(RecipientColumn.growth10s))
        #expect(state.sortOrder(of: .mailTypes)?.column == Column.ID(MailTypeColumn.postsPerSecond))
    }

    @Test("Enter drills into the selected mail type; Esc, Backspace and Left go back")
    func drillIn() {
        for back in [Key.escape, .backspace, .left] {
            var state = AppState()
            press(.down, .enter, on: &state)
            #expect(state.screen == .mailType(DashboardFixture.download))
            #expect(state.focus == .recipients)
            press(back, on: &state)
            #expect(state.screen == .overview)
            #expect(state.focus == .mailTypes)
            #expect(state.focusedMailType(in: dashboard) == DashboardFixture.download)
        }
    }

    @Test("Enter expands a site into its registrations and collapses it; Left collapses from a registration")
    func expandSites() {
        var state = AppState()
        press(.enter, on: &state)
        #expect(state.screen == .mailType(DashboardFixture.cart))
        let leak = DashboardFixture.cartSites[3]
        #expect(selected(.recipients, state) == leak.key)
        press(.enter, on: &state)
        #expect(state.expanded.contains(leak.key))
        #expect(state.keys(of: .recipients, in: dashboard).count == 4 + 171)
        press(.down, .down, on: &state)
        #expect(selected(.recipients, state) == "#101")
        press(.left, on: &state)
        #expect(!state.expanded.contains(leak.key))
        #expect(selected(.recipients, state) == leak.key, "the cursor goes back to the site")
        #expect(state.screen == .mailType(DashboardFixture.cart), "collapsing is not leaving")
        press(.left, on: &state)
        #expect(state.screen == .overview)
    }

    @Test("d shows every field of the selected row; Enter on a finding opens it; Esc closes")
    func details() {
        var state = AppState()
        press(.character("d"), on: &state)
        #expect(state.details == .mailTypes)
        press(.escape, on: &state)
        #expect(state.details == nil)
        #expect(state.screen == .overview, "Esc closed the details only")
        press(.backTab, on: &state)
        #expect(state.focus == .findings)
        press(.down, .enter, on: &state)
        #expect(state.details == .findings)
        #expect(selected(.findings, state) == FindingLog.Entry.ranked(DashboardFixture.findings)[1].key)
        press(.down, on: &state)
        #expect(state.detailsScroll == 0, "the details fit: nothing to scroll")
        press(.enter, on: &state)
        #expect(state.details == nil)
    }

    @Test("s on a finding goes to its site: the drill-down of its mail type, the site's row selected")
    func goToSite() throws {
        var state = AppState()
        press(.character("s"), on: &state)
        #expect(state.screen == .overview && state.notice?.contains("select a finding") == true)
        press(.backTab, on: &state)
        let ranked = FindingLog.Entry.ranked(DashboardFixture.findings)
        #expect(ranked[0].finding.site == DashboardFixture.leakSite)
        press(.character("s"), on: &state)
        #expect(state.screen == .mailType(DashboardFixture.cart))
        #expect(state.focus == .recipients)
        let leak = try #require(DashboardFixture.cartSites.first { $0.site == DashboardFixture.leakSite })
        #expect(selected(.recipients, state) == leak.key)
        press(.escape, on: &state)
        #expect(state.screen == .overview && selected(.mailTypes, state) == DashboardFixture.cart.qualifiedName)

        // A queue's finding names no single site: s says so and stays.
        press(.backTab, on: &state)
        let queueFinding = try #require(ranked.firstIndex { $0.finding.site == nil })
        for _ in 0..<queueFinding { press(.down, on: &state) }
        press(.character("s"), on: &state)
        #expect(state.screen == .overview && state.notice?.contains("no single site") == true)
    }

    @Test("Tab and Shift-Tab cycle the panes of the current screen")
    func focus() {
        var state = AppState()
        var seen: [Pane] = []
        for _ in 0..<4 {
            press(.tab, on: &state)
            seen.append(state.focus)
        }
        #expect(seen == [.recipients, .prunes, .findings, .mailTypes], "the latency pane has no rows to select")
        press(.backTab, on: &state)
        #expect(state.focus == .findings)
        press(.escape, .tab, .enter, on: &state)
        #expect(state.screen == .mailType(DashboardFixture.cart))
        press(.tab, .tab, .tab, on: &state)
        #expect(state.focus == .recipients, "the drill-down has three panes with rows")
    }

    @Test("w shows the queues, longest wait first, and leaves them")
    func queues() {
        var state = AppState()
        press(.character("w"), on: &state)
        #expect(state.screen == .queues)
        #expect(state.focus == .queues)
        #expect(state.keys(of: .queues, in: dashboard) == ["main", "com.shop.analytics", "app.idle"])
        press(.enter, on: &state)
        #expect(state.details == .queues)
        press(.escape, .character("w"), on: &state)
        #expect(state.screen == .overview)
    }

    @Test("t shows mail types as a class tree: a subclass under its superclass")
    func tree() {
        var state = AppState()
        press(.character("t"), on: &state)
        #expect(state.isTreeShown)
        let lines = state.mailTypeLines(in: dashboard)
        let names = lines.map(\.row.name)
        let parent = names.firstIndex(of: "FixtureEvent")!
        #expect(names[parent + 1] == "ScreenShown")
        #expect(lines[parent + 1].tree == [.lastBranch])
        press(.function(5), on: &state)
        #expect(!state.isTreeShown)
    }

    @Test("r asks first: y or r resets, any other key keeps everything")
    func reset() {
        var state = AppState()
        #expect(state.press(.character("r"), on: dashboard) == .none)
        #expect(state.isConfirmingReset)
        #expect(state.press(.character("n"), on: dashboard) == .none)
        #expect(!state.isConfirmingReset)
        #expect(state.notice == "reset cancelled; nothing cleared")
        for confirm in [Key.character("y"), .character("r")] {
            _ = state.press(.character("r"), on: dashboard)
            #expect(state.press(confirm, on: dashboard) == .resetStatistics)
            #expect(state.notice == "statistics reset; live recipients kept")
        }
        press(.down, on: &state)
        #expect(state.notice == nil, "a notice lasts until the next key")
    }

    @Test("/ types a filter: Backspace deletes, Enter keeps it, Esc clears it")
    func filtering() {
        var state = AppState()
        press(.character("/"), on: &state)
        #expect(state.isEditingFilter)
        for character in "logq" { press(.character(character), on: &state) }
        #expect(state.filter == "logq", "q is typed into the filter, not a quit")
        press(.backspace, on: &state)
        #expect(names(state) == ["LoginEvent"])
        press(.enter, on: &state)
        #expect(!state.isEditingFilter)
        #expect(state.filter == "log")
        press(.character("/"), .character("X"), on: &state)
        #expect(names(state).isEmpty)
        press(.escape, on: &state)
        #expect(state.filter.isEmpty)
        #expect(names(state).count == 6)
    }

    @Test("p and Space pause the display; P pauses the scenario")
    func pausing() {
        var state = AppState()
        #expect(state.press(.character("p"), on: dashboard) == .none)
        #expect(state.isDisplayPaused)
        press(.character(" "), on: &state)
        #expect(!state.isDisplayPaused)
        #expect(state.press(.character("P"), on: dashboard) == .toggleScenarioPause)
    }

    @Test("+ lengthens the refresh interval and - shortens it, stopping at the ends")
    func refresh() {
        var state = AppState()
        press(.character("+"), on: &state)
        #expect(state.refreshInterval == 1)
        for _ in 0..<10 { press(.character("-"), on: &state) }
        #expect(state.refreshInterval == 0.05, "the shortest interval --refresh accepts")
        for _ in 0..<10 { press(.character("+"), on: &state) }
        #expect(state.refreshInterval == 10)
        state.refreshInterval = 0.3
        press(.character("+"), on: &state)
        #expect(state.refreshInterval == 0.5)
    }

    @Test(
        "?, h and F1 open help; Esc closes it; q quits from anywhere",
        arguments: [Key.character("?"), .character("h"), .function(1)])
    func help(key: Key) {
        var state = AppState()
        press(key, on: &state)
        #expect(state.isHelpShown)
        press(.escape, on: &state)
        #expect(!state.isHelpShown)
        press(key, on: &state)
        #expect(state.press(.character("q"), on: dashboard) == .quit)
        var detail = AppState()
        press(.enter, .character("d"), on: &detail)
        #expect(detail.press(.character("q"), on: dashboard) == .quit)
    }

    @Test("keys with no binding change nothing")
    func unbound() {
        var state = AppState()
        _ = state.draw(dashboard, with: Renderer(glyphs: .unicode))
        let before = state
        #expect(state.handle(.character("z"), dashboard: dashboard) == .none)
        #expect(state == before)
    }
}
