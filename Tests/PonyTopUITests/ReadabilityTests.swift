import PonyExpress
import PonyExpressMonitor
import PonyTopModel
import PonyTopReport
import Testing

@testable import PonyTopUI

/// What a newcomer reads at every size: p99 and max whole, findings in the order to act on, overlays that scroll and
/// stay, sorting that stays on screen, and words that say what they count.
@Suite("ponytop reads right at every width")
struct ReadabilityTests {
    let renderer = Renderer(glyphs: .unicode)

    func lines(of grid: Grid) -> [String] {
        grid.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func state(
        width: Int = 80, height: Int = 24, _ keys: Key..., dashboard: Dashboard = DashboardFixture.busy()
    )
        -> AppState
    {
        var state = AppState()
        state.terminalWidth = width
        state.terminalHeight = height
        for key in keys { _ = state.press(key, on: dashboard) }
        return state
    }

    @Test(
        "the latency pane shows p99 and max whole, for the handler and the wait",
        arguments: [(80, 24, true), (100, 30, false), (120, 40, false), (200, 60, false)])
    func latencyFigures(width: Int, height: Int, drillDown: Bool) throws {
        let keys: [Key] = drillDown ? [.enter] : []
        var state = state(width: width, height: height)
        for key in keys { _ = state.press(key, on: DashboardFixture.busy()) }
        let grid = renderer.render(DashboardFixture.busy(), state: state, width: width, height: height)
        if width == 100 { try SnapshotAssertion.check(grid, named: "overview-100x30") }
        let rows = lines(of: grid)
        #expect(rows.contains { $0.contains("p50   p90   p99   max") }, "\(grid.text)")
        // CartUpdated: handler p50 1.5µs, p90 4.5µs, p99 14µs, max 60µs; wait 25µs, 75µs, 225µs, 1.0ms.
        #expect(rows.contains { $0.contains("█ run  1.5µs 4.5µs  14µs  60µs") }, "\(grid.text)")
        #expect(rows.contains { $0.contains("▒ wait  25µs  75µs 225µs 1.0ms") }, "\(grid.text)")
    }

    @Test("a superclass whose queued recipients wait on subclass mail does not say its delivery is synchronous")
    func superclassWait() {
        var dashboard = DashboardFixture.busy(sitesOf: DashboardFixture.event)
        dashboard.sites = [
            SiteRow(
                site: SourceLocation(fixture: "Shop/AnalyticsLogger.swift:15"), registeredFor: "FixtureEvent",
                isInherited: false,
                kind: DashboardFixture.analyticsLogger, queue: "app.workers", sender: .any, recipients: 1,
                deliveries: 1_500)
        ]
        var state = AppState()
        state.screen = .mailType(DashboardFixture.event)
        state.focus = .recipients
        let text = renderer.render(dashboard, state: state, width: 120, height: 40).text
        #expect(text.contains("none for its own posts"), "\(text)")
        #expect(text.contains("its recipients get subclass mail"), "\(text)")
        #expect(!text.contains("synchronous") && !text.contains("no deliveries yet"), "\(text)")
    }

    @Test("the prunes pane says that its rows count recent prunes and its figure every prune, as the header does")
    func prunesCounts() {
        let text = renderer.render(DashboardFixture.busy(), state: AppState(), width: 120, height: 40).text
        #expect(text.contains("pruned/s 1.5  in all 35"), "\(text)")
        #expect(text.contains("pruned 35"), "the header's figure is the same")
        let headings = lines(of: renderer.render(DashboardFixture.busy(), state: AppState(), width: 120, height: 40))
        #expect(headings.contains { $0.contains("SITE") && $0.contains("RECENT▼") }, "\(text)")
        #expect(Legend.terms.contains { $0.term == "RECENT" })
    }

    @Test("findings are ranked: a leak before the over-subscription it causes, then slowness; oldest first")
    func findingsRanked() {
        let dashboard = DashboardFixture.busy()
        let shown = AppState().findingRows(in: dashboard).map(\.finding.category)
        #expect(shown == [.leak, .oversubscription, .slow])
        let second = DashboardFixture.second
        let older = FindingLog.Entry(
            holding: Finding(
                kind: "growingRegistrations", mailType: DashboardFixture.download,
                site: SourceLocation(fixture: "A.swift:1"), explanation: "older", evidence: [],
                firstSeen: DashboardFixture.now - 50 * second))
        let ranked = FindingLog.Entry.ranked(dashboard.findings + [older])
        #expect(ranked.map(\.finding.explanation).first == "older", "the older leak first")
        #expect(FindingLog.Entry.ranked(ranked.reversed()) == ranked, "the order does not depend on the input's")
        #expect(reportCategories() == ["leak", "oversubscription"], "the report ranks as the pane does")
        let help = HelpScreen.lines(glyphs: .unicode)
        #expect(help.contains { $0.keys == "order" && $0.summary.hasPrefix("what to act on first: LEAK, then") })
        #expect(help.contains { $0.keys == "CHURN" })
    }

    /// The categories of a report's findings, from a snapshot that lists a newer over-subscription before an older
    /// leak (the monitor's order, newest first).
    func reportCategories() -> [String] {
        let base = PostOfficeMonitor().snapshot()
        let mailType = DashboardFixture.cart
        let now = base.time
        let findings = [
            Finding(
                kind: "duplicateRegistration", mailType: mailType, site: nil, explanation: "twice", evidence: [],
                firstSeen: now - 1_000_000_000),
            Finding(
                kind: "growingRegistrations", mailType: mailType, site: nil, explanation: "grows", evidence: [],
                firstSeen: now - 2_000_000_000),
        ]
        let snapshot = MonitorSnapshot(
            time: now, uptime: base.uptime, totals: base.totals, mailTypes: base.mailTypes,
            handlerLatency: base.handlerLatency, queueWait: base.queueWait, queues: base.queues, sites: base.sites,
            recentPrunes: base.recentPrunes, findings: findings, recipients: [:], estimatedMemoryBytes: 0)
        let report = Report(
            snapshot: snapshot, source: Report.Source(kind: .scenario, name: "test"), durationSeconds: 1, rate: 1,
            seed: 1)
        return report.findings.map(\.category)
    }

    @Test("in help, End goes to the last line and stays in help; PgDn pages by the screen; PgUp comes straight back")
    func helpScrolling() {
        let dashboard = DashboardFixture.busy()
        for (width, height) in [(80, 24), (120, 40)] {
            var state = state(width: width, height: height, .character("?"))
            _ = state.press(.end, on: dashboard)
            #expect(state.isHelpShown, "End keeps help open")
            let last = HelpScreen.maximumScroll(glyphs: .unicode, width: width, height: height - 3)
            #expect(state.helpScroll == last)
            #expect(state.cursors[.mailTypes] == nil, "the table beneath did not move")
            let bottom = renderer.render(dashboard, state: state, width: width, height: height).text
            #expect(bottom.contains(Finding.Kind.allCases.last!.rawValue), "the last line is shown")
            _ = state.press(.pageDown, on: dashboard)
            #expect(state.helpScroll == last, "no hidden scroll past the end")
            _ = state.press(.pageUp, on: dashboard)
            #expect(state.helpScroll == last - (height - 5), "PgUp moves a screenful at once")
            _ = state.press(.home, on: dashboard)
            #expect(state.helpScroll == 0)
            _ = state.press(.pageDown, on: dashboard)
            #expect(state.helpScroll == height - 5, "PgDn moves by the height shown, not 10")
        }
    }

    @Test("in details, End goes to the last line and keeps the details open; Up moves at once from there")
    func detailsScrolling() {
        let dashboard = DashboardFixture.busy()
        // A site's details list its 171 registrations: far more than a screen.
        var state = state(.enter, .character("d"))
        #expect(state.details == .recipients)
        _ = state.press(.pageDown, on: dashboard)
        #expect(state.detailsScroll == 24 - 5, "PgDn moves a screenful")
        _ = state.press(.end, on: dashboard)
        #expect(state.details == .recipients, "End keeps the details open")
        let end = state.detailsScroll
        #expect(end > 100)
        let bottom = renderer.render(dashboard, state: state, width: 80, height: 24).text
        #expect(bottom.contains(" of \(end + 19) "), "the last line is at the bottom: \(bottom)")
        _ = state.press(.pageDown, on: dashboard)
        #expect(state.detailsScroll == end, "no hidden scroll past the end")
        _ = state.press(.up, on: dashboard)
        #expect(state.detailsScroll == end - 1, "Up moves at once after the end")
    }

    @Test("help keeps a long key apart from its text")
    func helpLegendKeys() throws {
        var state = state(.character("?"))
        let dashboard = DashboardFixture.busy()
        var seen = false
        for _ in 0..<20 where !seen {
            let text = renderer.render(dashboard, state: state, width: 80, height: 24).text
            seen = text.contains("once, replay, over limit ")
            #expect(!text.contains("limita"), "\(text)")
            _ = state.press(.pageDown, on: dashboard)
        }
        #expect(seen)
    }

    @Test("at 80 columns, > sorts only by columns on screen, and the marker is always shown")
    func sortStaysOnScreen() {
        let dashboard = DashboardFixture.busy()
        var state = state()
        let shown =
            renderer.render(dashboard, state: state, width: 80, height: 24).layout.shownColumns[.mailTypes] ?? []
        #expect(!shown.contains(Column.ID(MailTypeColumn.history)), "80 columns leave the history out")
        for _ in 0..<MailTypesPane.columns.count + 1 {
            _ = state.press(.character(">"), on: dashboard)
            let grid = renderer.render(dashboard, state: state, width: 80, height: 24)
            #expect(shown.contains(state.sortOrder(of: .mailTypes)!.column))
            #expect(grid.text.contains("▼") || grid.text.contains("▲"), "\(grid.text)")
        }
    }

    @Test("with Findings focused, < and > say why they do nothing and move nothing")
    func sortWithFindingsFocused() {
        let dashboard = DashboardFixture.busy()
        var state = state(.tab, .tab, .tab)
        #expect(state.focus == .findings)
        let before = state
        _ = state.press(.character(">"), on: dashboard)
        #expect(state.sorts == before.sorts)
        #expect(state.focusedMailType(in: dashboard) == before.focusedMailType(in: dashboard))
        #expect(state.notice?.contains("findings are ranked") == true)
    }

    @Test("a column keeps its place when the sort marker moves")
    func columnsStayPut() {
        let dashboard = DashboardFixture.busy()
        var state = state(width: 120, height: 40)
        let before = lines(of: renderer.render(dashboard, state: state, width: 120, height: 40))[3]
        _ = state.press(.character(">"), on: dashboard)
        let after = lines(of: renderer.render(dashboard, state: state, width: 120, height: 40))[3]
        let strip = { (line: String) in line.replacingOccurrences(of: "▼", with: " ") }
        #expect(strip(before) == strip(after), "\(before)\n\(after)")
    }

    @Test("a replay's footer names its keys first, p as resume while paused, and not r; a recording run says REC")
    func replayFooterAndRecordingMarker() {
        var dashboard = DashboardFixture.busy()
        dashboard.status = SourceStatus(title: "replay run.ponyrec 3/9 of shop")
        dashboard.status.isReplay = true
        var state = AppState()
        let playing = lines(of: renderer.render(dashboard, state: state, width: 80, height: 24)).last ?? ""
        #expect(playing.hasPrefix("q quit ? help p pause , . step [ ] jump "), "\(playing)")
        state.isDisplayPaused = true
        let paused = lines(of: renderer.render(dashboard, state: state, width: 200, height: 60)).last ?? ""
        #expect(paused.hasPrefix("q quit ? help p resume , . step [ ] jump "), "\(paused)")
        #expect(!paused.contains("r reset"), "a replay cannot reset: \(paused)")

        dashboard.status = SourceStatus(title: "shop pid 42")
        dashboard.status.isRecording = true
        state.isDisplayPaused = false
        let header = lines(of: renderer.render(dashboard, state: state, width: 80, height: 24)).first ?? ""
        #expect(header.hasSuffix("[REC]"), "\(header)")
        let footer = lines(of: renderer.render(dashboard, state: state, width: 200, height: 24)).last ?? ""
        #expect(footer.contains("p pause +/- interval r reset"), "\(footer)")
    }

    /// The reset question an attached app's `r` asks at 80x24, and the notice after `y`.
    private func resetQuestion(_ scope: SourceStatus.ResetScope) -> (grid: Grid, notice: String?) {
        var dashboard = DashboardFixture.busy()
        dashboard.status = SourceStatus(title: "ponydemo pid 42")
        dashboard.status.resetScope = scope
        var state = state(.character("r"), dashboard: dashboard)
        let grid = renderer.render(dashboard, state: state, width: 80, height: 24)
        _ = state.press(.character("y"), on: dashboard)
        return (grid, state.notice)
    }

    @Test("attached to an agent of 1.6, r forgets this viewer's findings and says the app's counters are its own")
    func attachedReset() throws {
        let (grid, notice) = resetQuestion(.viewerFindings)
        try SnapshotAssertion.check(grid, named: "reset-attached-80x24")
        #expect(grid.text.contains("Forget this viewer's findings?"))
        #expect(grid.text.contains("viewer resets them, nor its metrics or its finding log."))
        #expect(notice == "this viewer's findings forgotten; the app's counters are its own")
    }

    @Test("attached to an older agent, the reset question says it resets the app's monitor for every viewer")
    func attachedResetOfAnOlderAgent() {
        let (grid, notice) = resetQuestion(.appForEveryViewer)
        #expect(grid.text.contains("Reset the attached app's statistics, for every viewer?"))
        #expect(grid.text.contains("(its agent is older than protocol 1.6)"))
        #expect(notice == "the app's statistics reset, for every viewer; live recipients kept")
    }

    @Test("a terminal too small still says what it needs, even at 20x6")
    func tooSmall() throws {
        let grid = renderer.render(DashboardFixture.busy(), state: AppState(), width: 20, height: 6)
        try SnapshotAssertion.check(grid, named: "too-small-20x6")
        let words = grid.text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        #expect(words.contains("80x24"), "\(grid.text)")
        #expect(words.contains("20x6;"), "\(grid.text)")
    }

    @Test("the header drops whole parts, never half a number, when paused at 80 columns")
    func headerAtEighty() {
        let grid = renderer.render(
            DashboardFixture.busy(), state: state(.character("p")), width: 80, height: 24)
        let header = lines(of: grid)[0]
        #expect(header.contains("[PAUSED]"))
        #expect(!header.contains("…"), "\(header)")
        #expect(header.contains("up 1:23"))
    }

    @Test("a queue's estimated backlog is a whole number")
    func wholeBacklog() throws {
        var dashboard = DashboardFixture.busy()
        dashboard.queues[0] = DashboardFixture.queue("com.shop.analytics", deliveries: 10, backlog: 0.4)
        dashboard.queues[1] = DashboardFixture.queue("main", deliveries: 10, backlog: 2.6)
        let grid = renderer.render(dashboard, state: state(.character("w")), width: 120, height: 40)
        for (label, backlog) in [("com.shop.analytics", "0"), ("main", "3")] {
            let row = try #require(lines(of: grid).first { $0.hasPrefix("│\(label) ") }, "\(grid.text)")
            #expect(row.split(separator: " ").dropFirst().first == Substring(backlog), "\(row)")
        }
    }

    @Test("CJK in the filter takes two columns a character and keeps the border on screen")
    func wideCharacters() {
        var state = state(.character("/"))
        for character in "カート" { _ = state.press(.character(character), on: DashboardFixture.busy()) }
        let grid = renderer.render(DashboardFixture.busy(), state: state, width: 80, height: 24)
        let title = lines(of: grid)[2]
        #expect(title.contains("filter \"カート\""), "\(title)")
        #expect(Text.width(title) == 80 && title.hasSuffix("┐"), "the top-right corner is in the last column: \(title)")
        for y in 0..<grid.height {
            for x in 0..<grid.width where grid[x, y].isWideContinuation {
                #expect(Text.columns(of: grid[x - 1, y].scalar) == 2)
                #expect(grid.presented(x: x, y: y) == nil, "the terminal gets each wide character once")
            }
        }
        var cut = Grid(width: 5, height: 1)
        cut.write("カート", x: 0, y: 0)
        #expect(cut.text == "カー", "a wide character that does not fit whole is left out")
        cut.write("x", x: 1, y: 0)
        #expect(cut.presented(x: 0, y: 0) == " ", "half a wide character drawn over becomes a space")
    }

    /// The busy dashboard with `CartViewModel` registered four times at one site: three duplicates.
    static func tripleDuplicate() -> Dashboard {
        var dashboard = DashboardFixture.busy()
        let site = "Shop/CartViewModel.swift:21"
        dashboard.sites[0].registrations += (10...11).map {
            DashboardFixture.registration(
                UInt64($0), site, kind: DashboardFixture.cartViewModel, age: 70 * DashboardFixture.second,
                deliveries: 40_000,
                duplicate: true)
        }
        dashboard.sites[0].recipients = 4
        return dashboard
    }

    @Test(
        "a recipient's DUP×N marker reads whole at every width: its name gives way with an ellipsis",
        arguments: [(80, 24), (100, 30), (120, 40), (200, 60)])
    func duplicateMarker(width: Int, height: Int) throws {
        let dashboard = Self.tripleDuplicate()
        for keys in [[], [Key.enter]] {
            var state = state(width: width, height: height)
            for key in keys { _ = state.press(key, on: dashboard) }
            let grid = renderer.render(dashboard, state: state, width: width, height: height)
            let row = try #require(
                lines(of: grid).first { $0.contains("CartViewModel.swift:21") && $0.contains("DUP") }, "\(grid.text)")
            #expect(row.contains("DUP×3 "), "the marker is whole: \(row)")
            let name = try #require(row.range(of: "Cart", range: row.range(of: ".swift:21")!.upperBound..<row.endIndex))
            let shown = row[name.lowerBound...].prefix { $0 != " " }
            #expect(
                shown == "CartViewModel" || (shown.hasSuffix("…") && "CartViewModel".hasPrefix(shown.dropLast())),
                "the name is whole or cut with an ellipsis: \(row)")
        }
    }

    @Test("at 80x24 the mail types table keeps PRUNED and the recipients table keeps +1M (growth over a minute)")
    func valuableColumnsAt80() throws {
        let overview = renderer.render(DashboardFixture.busy(), state: state(), width: 80, height: 24)
        #expect(
            overview.layout.shownColumns[.mailTypes]?.contains(Column.ID(MailTypeColumn.pruned)) == true,
            "\(overview.text)")
        #expect(
            overview.layout.shownColumns[.recipients]?.contains(Column.ID(RecipientColumn.growth1m)) == true,
            "\(overview.text)")
        let cart = try #require(lines(of: overview).first { $0.hasPrefix("│CartUpdated ") })
        #expect(cart.split(separator: " ").contains("31"), "CartUpdated's 31 prunes: \(cart)")
        let drillDown = renderer.render(DashboardFixture.busy(), state: state(.enter), width: 80, height: 24)
        #expect(
            drillDown.layout.shownColumns[.recipients]?.contains(Column.ID(RecipientColumn.growth1m)) == true,
            "\(drillDown.text)")
        let leak = try #require(lines(of: drillDown).first { $0.contains("CartBadgeObserver.swift:140") })
        #expect(leak.contains("+171"), "the leak's growth over a minute: \(leak)")
    }

    @Test("every cell of a registration's row under its site says something: its own value, or — for a site's growth")
    func registrationRowsFilled() throws {
        let dashboard = Self.tripleDuplicate()
        // Drill into CartUpdated, then expand the CartViewModel site (second by live recipients).
        let state = state(width: 200, height: 60, .enter, .down, .enter, dashboard: dashboard)
        let grid = renderer.render(dashboard, state: state, width: 200, height: 60)
        let rows = lines(of: grid).filter { $0.contains("├─ #") || $0.contains("└─ #") }
        #expect(rows.count == 4, "\(grid.text)")
        for row in rows {
            let cells = row.split(separator: "│")[0].split(separator: " ", omittingEmptySubsequences: true)
            // Tree, id, recipient (and markers), queue, sender, recipients, +10S, +1M, oldest, deliveries, wait.
            #expect(cells.contains("CartViewModel") && cells.contains("sync") && cells.contains("any"), "\(row)")
            #expect(cells.filter { $0 == "—" }.count == 2, "\(row)")
        }
        #expect(rows.filter { $0.contains("CartViewModel DUP") }.count == 3, "\(grid.text)")
        let prunes = renderer.render(
            DashboardFixture.busy(), state: self.state(width: 200, height: 60, .enter, .tab, .enter),
            width: 200, height: 60)
        let prune = lines(of: prunes).filter { $0.contains("  ├─ ") || $0.contains("  └─ ") }
        #expect(prune.count == 2 && prune.allSatisfy { $0.contains("CartViewModel") }, "\(prunes.text)")
    }
}
