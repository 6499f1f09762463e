import PonyExpress
import PonyTopUI
import Testing

@Suite("The mark of bridged mail types")
struct BridgedMarkTests {
    /// The busy fixture, with `NetworkChanged` posted by a NotificationCenter bridge.
    static func dashboard() -> Dashboard {
        var dashboard = DashboardFixture.busy()
        let index = dashboard.mailTypes.firstIndex { $0.mailType == DashboardFixture.network }!
        dashboard.mailTypes[index] = dashboard.mailTypes[index].with(bridgedPosts: 2)
        return dashboard
    }

    static func line(_ text: String, containing name: String) -> String {
        String(text.split(separator: "\n").first { $0.contains(name) } ?? "")
    }

    @Test("a bridged type's name carries the mark, in Unicode and in ASCII; the others do not")
    func mark() {
        let unicode = Renderer(glyphs: .unicode).render(Self.dashboard(), state: AppState(), width: 120, height: 40)
        #expect(Self.line(unicode.text, containing: "NetworkChanged").contains("NetworkChanged ⇄"))
        #expect(!Self.line(unicode.text, containing: "LoginEvent").contains("⇄"))
        let ascii = Renderer(glyphs: .ascii).render(Self.dashboard(), state: AppState(), width: 120, height: 40)
        #expect(Self.line(ascii.text, containing: "NetworkChanged").contains("NetworkChanged <>"))
        let plain = Renderer(glyphs: .unicode).render(
            DashboardFixture.busy(), state: AppState(), width: 120, height: 40)
        #expect(!plain.text.contains("⇄"))
    }

    @Test("its details count the bridged posts")
    func details() {
        let dashboard = Self.dashboard()
        var state = AppState()
        let row = dashboard.mailTypes.firstIndex { $0.mailType == DashboardFixture.network }!
        // The table sorts by posts per second, highest first: NetworkChanged is below the busier types.
        let sorted = dashboard.mailTypes.sorted { $0.postsPerSecond > $1.postsPerSecond }
        let position = sorted.firstIndex { $0.mailType == DashboardFixture.network }!
        for _ in 0..<position { _ = state.press(.down, on: dashboard) }
        _ = state.press(.character("d"), on: dashboard)
        let grid = Renderer(glyphs: .unicode).render(dashboard, state: state, width: 120, height: 40)
        #expect(dashboard.mailTypes[row].isBridged)
        #expect(grid.text.contains("2 bridged from NotificationCenter"), "\(grid.text)")
    }
}
