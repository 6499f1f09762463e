import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import PonyTopReport
import Synchronization
import Testing

private struct RunMail: Mail {}
private struct SharedRunMail: Mail {}

/// A relay whose figures the test sets: the seam the monitor reads every relay through.
private final class SetRelayFigures: RelayFigureSource {
    private let figures = Mutex<[TypeIdentity: RelayFigures]>([:])

    func set(_ figures: RelayFigures, for type: TypeIdentity) {
        self.figures.withLock { $0[type] = figures }
    }

    func relayFigures() -> [TypeIdentity: RelayFigures] {
        figures.withLock { $0 }
    }
}

/// A report judges the whole run: every finding of its log with its state, counts over the run for an app that was
/// counting before it began, and a partial run marked so.
@Suite("The report of a run")
struct RunReportTests {
    @Test("a leak that stopped growing holds; a finding that stopped holding still counts; a retracted one does not")
    func findingsOfTheRun() throws {
        let office = PostOffice()
        let clock = ManualClock()
        let monitor = PostOfficeMonitor(clock: clock)
        monitor.attach(to: office)
        defer { monitor.detach() }
        var log = FindingLog()
        var kept: [(TestRecipient, RecipientId)] = []
        for _ in 0..<25 {
            let recipient = TestRecipient()
            kept.append((recipient, office.register(RunMail.self, recipient, TestRecipient.receive)))
            clock.advance(seconds: 1)
            log.record(monitor.snapshot())
        }
        clock.advance(seconds: 30)
        let report = Report(
            snapshot: monitor.snapshot(), log: log, source: Report.Source(kind: .scenario, name: "carts"),
            durationSeconds: 55, rate: 1, seed: 1)
        let leak = try #require(report.findings.first { $0.kind == "growingRegistrations" })
        #expect(leak.state == .holding)
        #expect(leak.retraction.value == nil)
        #expect(leak.firstSeenSecondsAgo > 30)
        #expect(!leak.worstEvidence.isEmpty)
        #expect(report.hasFinding(category: "leak"))
        #expect(report.json().contains("\"state\" : \"holding\""))
        #expect(report.text().contains("[holding]"))

        for (_, id) in kept { office.unregister(id) }
        clock.advance(seconds: 1)
        let after = Report(
            snapshot: monitor.snapshot(), log: log, source: Report.Source(kind: .scenario, name: "carts"),
            durationSeconds: 56, rate: 1, seed: 1)
        let retracted = try #require(after.findings.first { $0.kind == "growingRegistrations" })
        #expect(retracted.state == .retracted)
        #expect(retracted.retraction.value?.contains("not a leak") == true)
        #expect(!after.hasFinding(category: "leak"), "a retracted leak does not fail --fail-on leak")
        #expect(after.text().contains("retracted: the registrations that raised it ended"))
        #expect(try Report.decode(json: after.json()) == after)
    }

    @Test(
        "an attached app's and a recording's counts cover the run, with the app's lifetime beside them under its own name"
    )
    func attachedDeltas() throws {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        office.register { (_: RunMail) in }
        for _ in 0..<100 { office.post(RunMail()) }
        let first = monitor.snapshot()
        for _ in 0..<7 { office.post(RunMail()) }
        let report = Report(
            snapshot: monitor.snapshot(), first: first, source: Report.Source(kind: .attached, name: "shop", pid: 9),
            durationSeconds: 1, rate: 1, seed: 1)
        #expect(report.totals.posts == 7)
        #expect(report.totals.countsCover == "run")
        #expect(report.totals.appLifetime.value?.posts == 107)
        #expect(report.mailTypes.first { $0.name == "RunMail" }?.posts == 7)
        #expect(report.json().contains("\"app_lifetime\" : {"))
        #expect(report.text().contains("totals over the run: posts 7"))
        #expect(report.text().contains("totals since the monitor attached to the app: posts 107"))

        // A recording's run is the time between its first and last snapshots, whatever the app posted before it.
        let replay = Report(
            snapshot: monitor.snapshot(), first: first, source: Report.Source(kind: .replay, name: "shop", pid: 9),
            durationSeconds: 1, rate: 1, seed: 1)
        #expect(replay.totals.posts == 7)
        #expect(replay.totals.appLifetime.value?.posts == 107)
        #expect(replay.mailTypes.first { $0.name == "RunMail" }?.posts == 7)
        #expect(replay.text().contains("totals over the run: posts 7"))
        #expect(replay.text().contains("totals since the monitor attached to the recorded app: posts 107"))

        let scenario = Report(
            snapshot: monitor.snapshot(), first: first, source: Report.Source(kind: .scenario, name: "s"),
            durationSeconds: 1, rate: 1, seed: 1)
        #expect(scenario.totals.posts == 107, "a scenario's run is its lifetime")
        #expect(scenario.totals.appLifetime.value == nil)
    }

    @Test("an interrupted run's report says so, in JSON and in text")
    func partial() throws {
        let monitor = PostOfficeMonitor()
        monitor.attach(to: PostOffice())
        defer { monitor.detach() }
        let report = Report(
            snapshot: monitor.snapshot(), source: Report.Source(kind: .scenario, name: "s"), durationSeconds: 1,
            rate: 1, seed: 1, interruptedBy: "SIGTERM")
        #expect(report.partial)
        #expect(report.json().contains("\"partial\" : true"))
        #expect(report.json().contains("\"interrupted_by\" : \"SIGTERM\""))
        #expect(report.text().hasPrefix("PARTIAL REPORT: the run was cut short by SIGTERM"))
    }

    @Test("a run with a relay: its counts cover the run, in JSON and in a text section of their own")
    func relayOverTheRun() throws {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        office.register { (_: RunMail) in }
        office.register { (_: SharedRunMail) in }
        office.post(RunMail())
        office.post(SharedRunMail())
        let relay = SetRelayFigures()
        let shared = TypeIdentity(SharedRunMail.self)
        relay.set(
            RelayFigures(sent: 40, received: 30, dropped: 2, lagSamples: 30, lagP50: 800_000, lagP99: 2_500_000),
            for: shared)
        monitor.watch(relay)
        let first = monitor.snapshot()
        relay.set(
            RelayFigures(sent: 47, received: 35, dropped: 3, lagSamples: 35, lagP50: 900_000, lagP99: 3_100_000),
            for: shared)
        let source = Report.Source(kind: .attached, name: "shop", pid: 9)
        let report = Report(
            snapshot: monitor.snapshot(), first: first, source: source, durationSeconds: 1, rate: 1, seed: 1)

        let figures = try #require(report.mailTypes.first { $0.name == "SharedRunMail" }?.relay.value)
        #expect((figures.sent, figures.received, figures.dropped) == (7, 5, 1), "deltas over the run")
        #expect(figures.lagP99Us.value == 3_100)
        #expect(report.mailTypes.first { $0.name == "RunMail" }?.relay.value == nil, "RunMail is not shared")
        #expect(try Report.decode(json: report.json()) == report)

        let text = report.text()
        #expect(text.contains("relayed with other processes (counts over the run): 1 shared mail type\n"))
        let row = text.split(separator: "\n").first { $0.hasPrefix("  SharedRunMail ") }
        #expect(
            row?.split(separator: " ").map(String.init)
                == ["SharedRunMail", "7", "5", "1", Units.duration(3_100_000)])
        #expect(!text.contains("  RunMail  "), "a type that is not shared has no relay row")

        let scenario = Report(
            snapshot: monitor.snapshot(), first: first, source: Report.Source(kind: .scenario, name: "s"),
            durationSeconds: 1, rate: 1, seed: 1)
        let lifetime = try #require(scenario.mailTypes.first { $0.name == "SharedRunMail" }?.relay.value)
        #expect((lifetime.sent, lifetime.received, lifetime.dropped) == (47, 35, 3), "a scenario's run is its lifetime")

        relay.set(
            RelayFigures(sent: 50, received: 30, dropped: 2, lagSamples: 30, lagP50: 800_000, lagP99: 2_500_000),
            for: shared)
        let quiet = Report(
            snapshot: monitor.snapshot(), first: first, source: source, durationSeconds: 1, rate: 1, seed: 1)
        let nothingArrived = try #require(quiet.mailTypes.first { $0.name == "SharedRunMail" }?.relay.value)
        #expect(nothingArrived.received == 0)
        #expect(nothingArrived.lagP99Us.value == nil, "no lag from before the run when nothing arrived during it")
        let quietRow = quiet.text().split(separator: "\n").first { $0.hasPrefix("  SharedRunMail ") }
        #expect(quietRow?.split(separator: " ").map(String.init) == ["SharedRunMail", "10", "0", "0", "-"])
    }

    @Test("a run without a relay has no relay section")
    func noRelay() {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        office.register { (_: RunMail) in }
        office.post(RunMail())
        let report = Report(
            snapshot: monitor.snapshot(), source: Report.Source(kind: .scenario, name: "s"), durationSeconds: 1,
            rate: 1, seed: 1)
        #expect(!report.text().contains("relayed with other processes"))
        #expect(report.mailTypes.allSatisfy { $0.relay.value == nil })
    }
}
