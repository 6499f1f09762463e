import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import PonyTopUI
import Testing

private struct RunMail: Mail {}

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

    @Test("an attached app's counts cover the run, with the app's lifetime beside them under its own name")
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
}
