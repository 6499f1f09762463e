import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyScenarios
import PonyTestSupport
import PonyTopUI
import Testing

@Suite("Frames built from a live monitor", .blocksItsThread)
struct LiveFrameTests {
    /// Runs `flood` (the app's recipients, mail posted as fast as two threads can) and draws frames at 200x60:
    /// snapshot, dashboard and grid. Prints the frame times it measured; speed targets are not asserted here.
    @Test("a frame of a monitor under full load shows its mail types, recipients and latency")
    func liveFrames() throws {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        let scenario = try #require(Scenario.builtin(named: "flood"))
        let runner = ScenarioRunner(scenario: scenario, office: office, rate: 1, seed: 1)
        runner.start()
        defer {
            runner.stop()
            monitor.detach()
        }
        #expect(waitUntil(timeout: 10) { monitor.snapshot().totals.postsPerSecond > 0 })
        let renderer = Renderer(glyphs: .unicode)
        let state = AppState()
        var durations: [UInt64] = []
        var parts: [(snapshot: UInt64, dashboard: UInt64, grid: UInt64)] = []
        var grid = Grid(width: 0, height: 0)
        var snapshot = monitor.snapshot()
        var dashboard: Dashboard?
        for _ in 0..<200 {
            let start = DispatchTime.now().uptimeNanoseconds
            snapshot = monitor.snapshot()
            let taken = DispatchTime.now().uptimeNanoseconds
            let progress = runner.progress
            let status = SourceStatus(
                name: scenario.name, phase: progress.phaseName, phaseIndex: progress.phaseIndex,
                phaseCount: progress.phaseCount, isPaused: progress.isPaused, isFinished: progress.isFinished)
            let frame = Dashboard(snapshot: snapshot, status: status, state: state)
            let built = DispatchTime.now().uptimeNanoseconds
            grid = renderer.render(frame, state: state, width: 200, height: 60)
            dashboard = frame
            let end = DispatchTime.now().uptimeNanoseconds
            durations.append(end - start)
            parts.append((taken - start, built - taken, end - built))
        }
        durations.sort()
        let median = Units.duration(durations[durations.count / 2])
        let p99 = Units.duration(durations[durations.count * 99 / 100])
        func medianOf(_ values: [UInt64]) -> String { Units.duration(values.sorted()[values.count / 2]) }
        print(
            "ponytop frame at 200x60 under flood: median \(median), p99 \(p99), \(durations.count) frames "
                + "(medians: snapshot \(medianOf(parts.map(\.snapshot))), dashboard \(medianOf(parts.map(\.dashboard))), "
                + "grid \(medianOf(parts.map(\.grid))))")

        let shown = try #require(dashboard)
        let selected = try #require(state.visibleMailTypes(in: shown).first)
        for row in shown.mailTypes { #expect(grid.text.contains(row.name)) }
        let live = shown.sites.reduce(0) { $0 + $1.recipients }
        #expect(grid.text.contains("Recipients of \(selected.name): \(live) at \(shown.sites.count) site"))
        #expect(live == selected.receivingRecipients)
        #expect(grid.text.contains("scenario flood"))
        #expect(grid.text.contains("Latency of \(selected.name)"))
        #expect(selected.postsPerSecond > 0)
    }

    @Test("the dashboard carries the monitor's numbers and the focused type's recipients")
    func adapter() throws {
        final class Listener: Sendable {
            func receive(_ mail: LiveFrameMail) {}
        }
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        let listener = Listener()
        office.register(listener, Listener.receive)
        office.register(listener, Listener.receive)
        for _ in 0..<5 { office.post(LiveFrameMail()) }
        let snapshot = monitor.snapshot()
        let status = SourceStatus(
            name: "test", phase: "one", phaseIndex: 0, phaseCount: 1, isPaused: false, isFinished: false)
        let dashboard = Dashboard(snapshot: snapshot, status: status, state: AppState())
        let row = try #require(dashboard.row(for: TypeIdentity(LiveFrameMail.self)))
        #expect(row.posts == 5)
        #expect(row.deliveries == 10)
        #expect(row.receivingRecipients == 2)
        #expect(dashboard.posts == snapshot.totals.posts)
        #expect(dashboard.sitesMailType == TypeIdentity(LiveFrameMail.self))
        #expect(dashboard.sites.count == 2, "two register calls, two lines")
        let registrations = dashboard.sites.flatMap(\.registrations)
        #expect(registrations.count == 2)
        #expect(dashboard.sites.allSatisfy { $0.kind.objectType?.name == "Listener" && $0.recipients == 1 })
        #expect(registrations.contains { $0.recipient.isDuplicate })
        #expect(dashboard.sites.allSatisfy { $0.site.description.hasPrefix("PonyTopUITests/LiveFrameTests.swift:") })
        #expect(dashboard.sites.map(\.deliveries) == [5, 5])
    }
}

struct LiveFrameMail: Mail {}
