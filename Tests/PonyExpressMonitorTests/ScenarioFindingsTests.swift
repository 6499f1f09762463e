import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyScenarios
import PonyTestSupport
import Testing

/// Runs a built-in scenario against a monitor until `done` says the snapshot shows what it should, or the deadline
/// passes; returns the last snapshot.
private func run(
    _ name: String, settings: MonitorSettings, seconds: Double, until done: (MonitorSnapshot) -> Bool
) throws -> MonitorSnapshot {
    let scenario = try #require(Scenario.builtin(named: name))
    let office = PostOffice()
    let monitor = PostOfficeMonitor(settings: settings)
    monitor.attach(to: office)
    let runner = ScenarioRunner(scenario: scenario, office: office, seed: 1)
    runner.start()
    defer {
        runner.stop()
        monitor.detach()
    }
    var snapshot = monitor.snapshot()
    waitUntil(timeout: seconds, pollingEvery: 0.2) {
        snapshot = monitor.snapshot()
        return done(snapshot)
    }
    expectFactsJudgeAlike(snapshot, settings: settings)
    return snapshot
}

/// The snapshot's rule facts, judged away from the monitor with the same settings, give the findings the monitor
/// judged of those rules: what a replay of its recording shows.
private func expectFactsJudgeAlike(_ snapshot: MonitorSnapshot, settings: MonitorSettings) {
    guard let facts = snapshot.ruleFacts else {
        Issue.record("a monitor's snapshot carries its rule facts")
        return
    }
    let judged = FindingJudge(judgingFactsWith: settings).judge(facts, datingFrom: snapshot.findings)
    // The same findings; a judge whose first facts are these dates each from their history, which may find it held a
    // fraction of a second before the monitor's snapshot saw it (the facts are by whole seconds), never later.
    let monitors = Dictionary(snapshot.findings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    #expect(Set(judged.map(\.id)) == Set(monitors.keys))
    for finding in judged {
        guard let seen = monitors[finding.id] else { continue }
        #expect(
            (finding.explanation, finding.evidence, finding.retraction) == (
                seen.explanation, seen.evidence, seen.retraction
            ))
        #expect(finding.firstSeen <= seen.firstSeen && seen.firstSeen - finding.firstSeen < 1_000_000_000)
    }
}

/// Shorter windows than an app would use, so that each planted problem shows within seconds.
private var quick: MonitorSettings {
    var settings = MonitorSettings()
    settings.leakWindow = 5
    settings.risingWaitWindow = 5
    settings.longWindow = 3
    return settings
}

private func kinds(_ snapshot: MonitorSnapshot) -> Set<Finding.Kind> {
    Set(snapshot.findings.map(\.kind))
}

/// Each built-in scenario's planted problem is found by the monitor, and the healthy `app` produces no finding.
@Suite("Built-in scenarios against the monitor", .blocksItsThread, .serialized, .tags(.concurrency))
struct ScenarioFindingsTests {
    @Test(
        "app, the healthy default, produces no finding over a whole leak window",
        .skipped(
            under: .thread, .address,
            because: "the sanitizers' slowdown breaks the timing the healthy scenario relies on"))
    func appIsHealthy() async throws {
        // Real time: a stress beside it would starve its queues into a false rising wait.
        let snapshot = try await MachineLoad.alone {
            try run("app", settings: MonitorSettings(), seconds: 12) { _ in false }
        }
        #expect(snapshot.totals.posts > 0)
        #expect(snapshot.findings.isEmpty, "\(snapshot.findings.map(\.explanation))")
    }

    @Test("leaky: blocks and registrations that pile up are reported as leaks")
    func leaky() throws {
        let snapshot = try run("leaky", settings: MonitorSettings(), seconds: 20) { snapshot in
            Set(snapshot.findings(of: .growingRegistrations).compactMap(\.subject)) == ["block", "SessionViewModel"]
        }
        let leaks = snapshot.findings(of: .growingRegistrations)
        #expect(Set(leaks.compactMap(\.subject)) == ["block", "SessionViewModel"], "\(kinds(snapshot))")
        #expect(leaks.allSatisfy { $0.category == .leak && $0.site != nil })
    }

    @Test(
        "scoped: one request in 50 that leaves its block behind is found at once, named with its scope; released screens are not"
    )
    func scoped() throws {
        let snapshot = try run("scoped", settings: MonitorSettings(), seconds: 20) { snapshot in
            !snapshot.findings(of: .outlivedScope).isEmpty
        }
        let leaks = snapshot.findings(of: .outlivedScope)
        #expect(leaks.map(\.subject) == ["GET /cart/updates"], "\(kinds(snapshot))")
        #expect(leaks.allSatisfy { $0.category == .leak && $0.mailType.name == "CartUpdated" })
        #expect(kinds(snapshot) == [.outlivedScope], "\(snapshot.findings.map(\.explanation))")
        let finding = try #require(leaks.first)
        #expect((finding.evidence(named: .cleanScopes) ?? 0) >= 10)
    }

    @Test("oversubscribed: too many recipients of one type, and one object registered again and again")
    func oversubscribed() throws {
        let snapshot = try run("oversubscribed", settings: quick, seconds: 20) {
            kinds($0).isSuperset(of: [.oversubscribed, .duplicateRegistration])
        }
        #expect(kinds(snapshot).isSuperset(of: [.oversubscribed, .duplicateRegistration]), "\(kinds(snapshot))")
    }

    @Test("burst: bursts into a slow serial queue make its wait climb, then stall")
    func burst() throws {
        let snapshot = try run("burst", settings: quick, seconds: 25) {
            kinds($0).isSuperset(of: [.risingQueueWait, .stalledQueue])
        }
        #expect(kinds(snapshot).isSuperset(of: [.risingQueueWait, .stalledQueue]), "\(kinds(snapshot))")
        let stall = try #require(snapshot.findings(of: .stalledQueue).first)
        #expect(stall.subject == "app.storage")
        #expect(stall.mailType.name == "DownloadProgress")
        #expect(stall.site?.fileID.hasSuffix("DownloadsViewModel.swift") == true)
    }

    @Test("churn: recipients dying without unregistering are pruned at a high rate")
    func churn() throws {
        let snapshot = try run("churn", settings: quick, seconds: 20) { kinds($0).contains(.highPruneRate) }
        #expect(kinds(snapshot).contains(.highPruneRate), "\(kinds(snapshot))")
        #expect(!snapshot.findings.contains { $0.category == .leak }, "dead weak references are churn, not leaks")
        #expect(snapshot.totals.pruned > 0)
        #expect(!snapshot.recentPrunes.isEmpty)
    }

    @Test("hierarchy: subclass mail reaches recipients of its superclasses")
    func hierarchy() throws {
        let snapshot = try run("hierarchy", settings: quick, seconds: 20) { snapshot in
            let names = Set(snapshot.mailTypes.filter { $0.deliveries > 0 }.map(\.mailType.name))
            return names.isSuperset(of: ["ScreenViewed", "RequestFinished"])
        }
        let delivered = Set(snapshot.mailTypes.filter { $0.deliveries > 0 }.map(\.mailType.name))
        #expect(delivered.isSuperset(of: ["ScreenViewed", "RequestFinished"]), "\(delivered)")
        // AppEvent itself is never posted here; its recipients receive the subclasses.
        let appEvent = snapshot.mailTypes.first { $0.mailType.name == "AppEvent" }
        #expect((appEvent?.recipients.total ?? 0) > 0)
        let appEventRecipients = appEvent.map { snapshot.recipients(of: $0.mailType) } ?? []
        #expect(appEventRecipients.contains { $0.deliveries > 0 })
    }
}
