import PonyExpress
import PonyExpressMonitor
import PonyTopModel
import PonyTopUI
import Testing

@Suite("Panes drawn into the grid, compared with recorded snapshots")
struct RendererTests {
    let renderer = Renderer(glyphs: .unicode)
    static let sizes = [(80, 24), (120, 40), (200, 60)]

    func state(_ keys: Key...) -> AppState {
        var state = AppState()
        for key in keys { _ = state.press(key, on: DashboardFixture.busy()) }
        return state
    }

    func render(
        _ state: AppState, _ width: Int, _ height: Int, _ dashboard: Dashboard = DashboardFixture.busy()
    )
        -> Grid
    {
        renderer.render(dashboard, state: state, width: width, height: height)
    }

    @Test("a finding that stopped holding stays in the pane, marked with why")
    func findingStates() {
        var dashboard = DashboardFixture.busy()
        dashboard.findings[1].state = .retracted(reason: "its registrations ended")
        dashboard.findings[2].state = .noLongerHolding
        let text = render(state(), 200, 60, dashboard).text
        #expect(text.contains("[retracted: its registrations ended]"), "\(text)")
        #expect(text.contains("[no longer holding]"), "\(text)")
        let holding = render(state(), 200, 60).text
        #expect(!holding.contains("[retracted") && !holding.contains("[no longer"), "a holding finding is not marked")
    }

    @Test("the overview", arguments: sizes)
    func overview(width: Int, height: Int) throws {
        let grid = render(state(), width, height)
        try SnapshotAssertion.check(grid, named: "overview-\(width)x\(height)")
        #expect(grid.text.contains("CartUpdated"))
        #expect(grid.text.contains("Recipients of CartUpdated: 175 at 4 sites"))
        #expect(grid.text.contains("CartBadgeObserver.swift:140"), "the leaking site's file and line stay whole")
        #expect(grid.text.contains("WAIT P99"))
    }

    @Test("the drill-down: one row per site, the leak first with its growth", arguments: sizes)
    func drillDown(width: Int, height: Int) throws {
        let grid = render(state(.enter), width, height)
        try SnapshotAssertion.check(grid, named: "drill-down-\(width)x\(height)")
        #expect(!grid.text.contains("Mail types"))
        let leakRow = grid.text.split(separator: "\n").first { $0.contains("CartBadgeObserver.swift:140") }
        #expect(leakRow?.contains("171") == true && leakRow?.contains("+40") == true, "\(leakRow ?? "")")
        #expect(!grid.text.contains("DownloadManager"), "prunes of other mail types are hidden in the drill-down")
    }

    @Test("a site expanded into its registrations", arguments: [(120, 40)])
    func expanded(width: Int, height: Int) throws {
        let grid = render(state(.enter, .enter, .down), width, height)
        try SnapshotAssertion.check(grid, named: "expanded-\(width)x\(height)")
        #expect(grid.text.contains("#100"))
        #expect(grid.text.contains("of 175"), "the rows' range is in the border")
    }

    @Test("a superclass's recipients receive a subclass's mail, and say so")
    func inherited() throws {
        var dashboard = DashboardFixture.busy(sitesOf: DashboardFixture.screen)
        dashboard.sites = [
            SiteRow(
                site: SourceLocation(fixture: "Shop/AnalyticsLogger.swift:15"), registeredFor: "FixtureEvent",
                isInherited: true,
                kind: DashboardFixture.analyticsLogger, queue: "app.workers", sender: .any, recipients: 1,
                deliveries: 1_500)
        ]
        var state = AppState()
        state.screen = .mailType(DashboardFixture.screen)
        state.focus = .recipients
        let grid = render(state, 120, 40, dashboard)
        try SnapshotAssertion.check(grid, named: "inherited-120x40")
        #expect(grid.text.contains("Recipients of ScreenShown: 1 at 1 site, 1 via superclasses"))
        #expect(grid.text.contains("AnalyticsLogger via FixtureEvent"))
    }

    @Test("a shared mail type shows its relay figures in a column, and its lag in its details")
    func relayFigures() {
        var dashboard = DashboardFixture.busy()
        #expect(!render(AppState(), 200, 60, dashboard).text.contains("RELAY"), "no column while nothing is shared")
        for index in dashboard.mailTypes.indices {
            dashboard.mailTypes[index] = dashboard.mailTypes[index].with(
                relay: RelayFigures(
                    sent: 12, received: 30, dropped: 1, lagSamples: 30, lagP50: 800_000, lagP99: 2_400_000))
        }
        let grid = render(AppState(), 200, 60, dashboard)
        #expect(grid.text.contains("RELAY SENT/RCVD/DROP"))
        #expect(grid.text.contains("12/30/1"))
        var state = AppState()
        _ = state.press(.character("d"), on: dashboard)
        let details = render(state, 200, 60, dashboard).text
        #expect(details.contains("12 sent, 30 received, 1 dropped"), "\(details)")
        #expect(details.contains("p50 800µs, p99 2.4ms over the last 30"), "\(details)")
    }

    @Test("the queues view: backlog and waits of every queue", arguments: sizes)
    func queues(width: Int, height: Int) throws {
        let grid = render(state(.character("w")), width, height)
        try SnapshotAssertion.check(grid, named: "queues-\(width)x\(height)")
        #expect(grid.text.contains("Queues (3)"))
        #expect(grid.text.contains("BACKLOG"))
        #expect(grid.text.contains("Wait on main"))
    }

    @Test("the class tree of mail types")
    func tree() throws {
        let grid = render(state(.character("t")), 120, 40)
        try SnapshotAssertion.check(grid, named: "tree-120x40")
        #expect(grid.text.contains("└─ ScreenShown"))
    }

    @Test("details show every field in full, wrapped", arguments: [(80, 24), (200, 60)])
    func findingDetails(width: Int, height: Int) throws {
        // The leak is ranked first.
        let grid = render(state(.backTab, .enter), width, height)
        try SnapshotAssertion.check(grid, named: "finding-details-\(width)x\(height)")
        let text = grid.text.split(separator: "\n").map { $0.trimmingCharacters(in: .init(charactersIn: "│ ")) }
            .joined(separator: " ")
        #expect(text.contains("none was ever unregistered"))
        #expect(text.contains("growth: 40"))
        #expect(text.contains(DashboardFixture.leakSite.description))
    }

    @Test("the details of a site list its registrations")
    func siteDetails() throws {
        let grid = render(state(.enter, .character("d")), 80, 24)
        try SnapshotAssertion.check(grid, named: "site-details-80x24")
        #expect(grid.text.contains("Site \(DashboardFixture.leakSite)"))
        #expect(grid.text.contains("+40 in 10 s, +171 in 1 min"))
    }

    @Test("the help screen: keys, then a legend of every column and finding", arguments: [(100, 30)])
    func help(width: Int, height: Int) throws {
        let grid = render(state(.character("?")), width, height)
        try SnapshotAssertion.check(grid, named: "help-\(width)x\(height)")
        var scrolled = state(.character("?"))
        var pages = ""
        for _ in 0..<8 {
            pages += render(scrolled, width, height).text
            for _ in 0..<20 { _ = scrolled.press(.down, on: DashboardFixture.busy()) }
        }
        for term in Legend.terms.map(\.term) + ["DUP", "LIVED", "T?", "=T", "growingRegistrations", "LEAK"] {
            #expect(pages.contains(term), "the help screen lacks \(term)")
        }
    }

    @Test("r asks before it resets, saying what it clears and what it keeps")
    func resetQuestion() throws {
        let grid = render(state(.character("r")), 80, 24)
        try SnapshotAssertion.check(grid, named: "reset-80x24")
        #expect(grid.text.contains("Keeps the live recipients"))
    }

    @Test("typing a filter, with the display, the order and the scenario paused")
    func filterAndPaused() throws {
        var state = state(.character("f"), .character("/"), .character("d"))
        state.isDisplayPaused = true
        let grid = render(state, 120, 40, DashboardFixture.busy(paused: true))
        try SnapshotAssertion.check(grid, named: "filter-paused-120x40")
        #expect(grid.text.contains("[PAUSED] [ORDER FROZEN] [SCENARIO PAUSED]"))
        #expect(grid.text.contains("filter: d"))
        #expect(!grid.text.contains("LoginEvent"))
    }

    @Test("a notice wider than the header keeps its first words, with an ellipsis where it is cut")
    func longNotice() {
        var dashboard = DashboardFixture.busy()
        dashboard.status.notice = "recording stopped: " + String(repeating: "the disk is full ", count: 8)
        let grid = render(AppState(), 80, 24, dashboard)
        let header = String(grid.text.split(separator: "\n")[0])
        #expect(header.contains("[recording stopped: the disk"), "\(header)")
        #expect(header.contains("…"), "\(header)")
    }

    @Test("ASCII glyphs and an empty post office")
    func asciiEmpty() throws {
        let grid = Renderer(glyphs: .ascii).render(DashboardFixture.empty, state: AppState(), width: 80, height: 24)
        try SnapshotAssertion.check(grid, named: "empty-ascii-80x24")
        #expect(grid.text.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(grid.text.contains("no mail yet"))
    }

    @Test("ASCII glyphs everywhere: help, details and the expanded tree stay ASCII")
    func asciiEverywhere() {
        let ascii = Renderer(glyphs: .ascii)
        for state in [
            state(.character("?")), state(.enter, .enter), state(.character("t")), state(.enter, .character("d")),
        ] {
            let grid = ascii.render(DashboardFixture.busy(), state: state, width: 120, height: 40)
            #expect(grid.text.unicodeScalars.allSatisfy { $0.isASCII })
        }
        // A finding in microseconds, listed and opened: its explanation and evidence write `us` (issue 41).
        var slow = DashboardFixture.busy()
        slow.findings = [
            FindingLog.Entry(
                holding: Finding(
                    kind: "slowRecipient", mailType: DashboardFixture.cart, site: DashboardFixture.leakSite,
                    explanation: "a block takes 92% of CartUpdated handler time, 412µs a delivery",
                    evidence: [.init(name: "mean handler time", value: 412_000, unit: .nanoseconds)],
                    firstSeen: DashboardFixture.now - 1_000_000_000))
        ]
        for state in [state(), state(.backTab, .enter)] {
            let grid = ascii.render(slow, state: state, width: 120, height: 40)
            #expect(grid.text.unicodeScalars.allSatisfy { $0.isASCII }, "\(grid.text)")
        }
        let opened = ascii.render(slow, state: state(.backTab, .enter), width: 120, height: 40).text
        #expect(opened.contains("mean handler time: 412us"), "\(opened)")
    }

    @Test("one word per concept: the same labels at every size", arguments: sizes)
    func vocabulary(width: Int, height: Int) {
        let text = render(state(), width, height).text
        #expect(text.contains("recipients 181"))
        #expect(text.contains("deliveries/s"))
        for drift in ["RECIPS", "alive", "DELIV/S", "deliv/s"] { #expect(!text.contains(drift), "\(drift)") }
    }

    @Test("a terminal below the minimum says what it needs", arguments: [(79, 24), (80, 23), (40, 10)])
    func tooSmall(width: Int, height: Int) {
        let grid = render(state(), width, height)
        #expect(grid.text.contains("terminal too small: need 80x24"))
        #expect(!grid.text.contains("CartUpdated"))
    }

    @Test("the selected row is highlighted, and only that row")
    func selection() {
        let grid = render(state(), 120, 40)
        let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false)
        let styles = grid.styleText.split(separator: "\n", omittingEmptySubsequences: false)
        let highlighted = styles.indices.filter { styles[$0].contains("SSSSSSSSSS") }
        #expect(highlighted.count == 1)
        #expect(highlighted.first.map { lines[$0].contains("CartUpdated") } == true)
    }

    @Test("drawing is pure: the same input gives the same grid")
    func pure() {
        let first = render(state(), 120, 40)
        let second = render(state(), 120, 40)
        #expect(first == second)
    }
}
