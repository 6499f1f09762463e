import PonyExpress
import PonyTopUI
import Testing

@Suite("Key handling as state transitions")
struct AppStateTests {
    let dashboard = DashboardFixture.busy()

    func names(_ state: AppState) -> [String] {
        state.visibleMailTypes(in: dashboard).map(\.name)
    }

    @Test("rows are sorted by posts per second, largest first, to start with")
    func defaultSort() {
        #expect(names(AppState()) == ["CartUpdated", "DownloadProgress", "LoginEvent", "NetworkChanged"])
    }

    @Test("Down and j select the next row, Up and k the previous, without running off either end")
    func moving() {
        var state = AppState()
        #expect(state.focusedMailType(in: state.visibleMailTypes(in: dashboard)) == DashboardFixture.cart)
        _ = state.handle(.down, dashboard: dashboard)
        #expect(state.selected == DashboardFixture.download)
        _ = state.handle(.character("j"), dashboard: dashboard)
        #expect(state.selected == DashboardFixture.login)
        _ = state.handle(.end, dashboard: dashboard)
        #expect(state.selected == DashboardFixture.network)
        _ = state.handle(.down, dashboard: dashboard)
        #expect(state.selected == DashboardFixture.network)
        _ = state.handle(.character("k"), dashboard: dashboard)
        #expect(state.selected == DashboardFixture.login)
        _ = state.handle(.home, dashboard: dashboard)
        _ = state.handle(.up, dashboard: dashboard)
        #expect(state.selected == DashboardFixture.cart)
    }

    @Test("Enter drills into the selected mail type; Esc, Backspace and Left go back")
    func drillIn() {
        for back in [Key.escape, .backspace, .left] {
            var state = AppState()
            _ = state.handle(.down, dashboard: dashboard)
            _ = state.handle(.enter, dashboard: dashboard)
            #expect(state.screen == .detail(DashboardFixture.download))
            #expect(state.focus == .recipients)
            _ = state.handle(back, dashboard: dashboard)
            #expect(state.screen == .overview)
            #expect(state.focus == .mailTypes)
            #expect(state.selected == DashboardFixture.download)
        }
    }

    @Test("Tab and Shift-Tab cycle the panes of the current screen")
    func focus() {
        var state = AppState()
        var seen: [Pane] = []
        for _ in 0..<5 {
            _ = state.handle(.tab, dashboard: dashboard)
            seen.append(state.focus)
        }
        #expect(seen == [.recipients, .latency, .prunes, .findings, .mailTypes])
        _ = state.handle(.backTab, dashboard: dashboard)
        #expect(state.focus == .findings)
        _ = state.handle(.enter, dashboard: dashboard)
        #expect(state.screen == .detail(DashboardFixture.cart), "Enter drills into the selection from any pane")
        _ = state.handle(.tab, dashboard: dashboard)
        _ = state.handle(.tab, dashboard: dashboard)
        _ = state.handle(.tab, dashboard: dashboard)
        _ = state.handle(.tab, dashboard: dashboard)
        #expect(state.focus == .recipients, "the drill-down has four panes")
    }

    @Test("Down scrolls a focused list other than the mail types, within its length")
    func scrolling() {
        var state = AppState()
        state.focus = .recipients
        for _ in 0..<10 { _ = state.handle(.down, dashboard: dashboard) }
        #expect(state.scroll[.recipients] == 3)
        #expect(state.selected == nil)
        _ = state.handle(.pageUp, dashboard: dashboard)
        #expect(state.scroll[.recipients] == 0)
    }

    @Test("s cycles the sort column, S reverses it")
    func sorting() {
        var state = AppState()
        _ = state.handle(.character("s"), dashboard: dashboard)
        #expect(state.sortColumn == .deliveriesPerSecond)
        _ = state.handle(.character("s"), dashboard: dashboard)
        #expect(state.sortColumn == .recipients)
        #expect(names(state) == ["CartUpdated", "LoginEvent", "DownloadProgress", "NetworkChanged"])
        _ = state.handle(.character("S"), dashboard: dashboard)
        #expect(names(state) == ["NetworkChanged", "DownloadProgress", "LoginEvent", "CartUpdated"])
        for _ in 0..<4 { _ = state.handle(.character("s"), dashboard: dashboard) }
        #expect(state.sortColumn == .name)
        #expect(names(state) == ["CartUpdated", "DownloadProgress", "LoginEvent", "NetworkChanged"])
    }

    @Test("/ types a filter: Backspace deletes, Enter keeps it, Esc clears it")
    func filtering() {
        var state = AppState()
        _ = state.handle(.character("/"), dashboard: dashboard)
        #expect(state.isEditingFilter)
        for character in "logq" { _ = state.handle(.character(character), dashboard: dashboard) }
        #expect(state.filter == "logq", "q is typed into the filter, not a quit")
        _ = state.handle(.backspace, dashboard: dashboard)
        #expect(names(state) == ["LoginEvent"])
        _ = state.handle(.enter, dashboard: dashboard)
        #expect(!state.isEditingFilter)
        #expect(state.filter == "log")
        _ = state.handle(.character("/"), dashboard: dashboard)
        _ = state.handle(.character("X"), dashboard: dashboard)
        #expect(names(state).isEmpty)
        _ = state.handle(.escape, dashboard: dashboard)
        #expect(state.filter.isEmpty)
        #expect(names(state).count == 4)
    }

    @Test("filter matching ignores case; Esc on the overview clears a kept filter")
    func filterCase() {
        var state = AppState()
        state.filter = "CART"
        #expect(names(state) == ["CartUpdated"])
        _ = state.handle(.escape, dashboard: dashboard)
        #expect(state.filter.isEmpty)
    }

    @Test("p and Space pause the display; P asks to pause the scenario; r asks for a reset")
    func pausing() {
        var state = AppState()
        #expect(state.handle(.character("p"), dashboard: dashboard) == .none)
        #expect(state.isDisplayPaused)
        _ = state.handle(.character(" "), dashboard: dashboard)
        #expect(!state.isDisplayPaused)
        #expect(state.handle(.character("P"), dashboard: dashboard) == .toggleScenarioPause)
        #expect(state.handle(.character("r"), dashboard: dashboard) == .resetStatistics)
    }

    @Test("+ and - step the refresh interval and stop at the ends")
    func refresh() {
        var state = AppState()
        _ = state.handle(.character("+"), dashboard: dashboard)
        #expect(state.refreshInterval == 1)
        for _ in 0..<10 { _ = state.handle(.character("-"), dashboard: dashboard) }
        #expect(state.refreshInterval == 0.1)
        state.refreshInterval = 0.3
        _ = state.handle(.character("+"), dashboard: dashboard)
        #expect(state.refreshInterval == 0.5)
    }

    @Test(
        "?, h and F1 open help; Esc closes it; q quits from anywhere",
        arguments: [Key.character("?"), .character("h"), .function(1)])
    func help(key: Key) {
        var state = AppState()
        _ = state.handle(key, dashboard: dashboard)
        #expect(state.isHelpShown)
        _ = state.handle(.escape, dashboard: dashboard)
        #expect(!state.isHelpShown)
        _ = state.handle(key, dashboard: dashboard)
        #expect(state.handle(.character("q"), dashboard: dashboard) == .quit)
        var detail = AppState()
        _ = detail.handle(.enter, dashboard: dashboard)
        #expect(detail.handle(.character("q"), dashboard: dashboard) == .quit)
    }

    @Test("keys with no binding change nothing")
    func unbound() {
        var state = AppState()
        let before = state
        #expect(state.handle(.character("z"), dashboard: dashboard) == .none)
        #expect(state == before)
    }
}
