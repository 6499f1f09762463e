import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct RoomMessage: Mail {}
private struct Typing: Mail {}

private final class Screen: Sendable {
    func show(_: RoomMessage) {}
}

/// `outlivedScope` (issue 42): one registration that outlives its scope is a leak at once, named with its scope
/// and site; scopes that end clean count, and say so.
@Suite struct OutlivedScopeTests {
    /// Serves one request: registers at one line, and unregisters unless `leaks`.
    private func serve(_ office: PostOffice, leaks: Bool) {
        office.scope("GET /rooms/:room/events", grace: .zero) {
            let id = office.register { (_: RoomMessage) in }
            if !leaks { office.unregister(id) }
        }
    }

    @Test("One leaked registration in five requests is one finding, at once, with the scope, the site and the counts")
    func oneLeakIsEnough() throws {
        let (office, monitor, clock) = watchedOffice()
        clock.advance(seconds: 2)
        let leaked = clock.now()
        for request in 0..<5 { serve(office, leaks: request == 2) }
        clock.advance(seconds: 3)
        let snapshot = monitor.snapshot()
        #expect(snapshot.findings.map(\.kind) == [.outlivedScope])
        let finding = try #require(snapshot.findings.first)
        // Dated from when the monitor heard the registration outlived its scope, not from the first snapshot.
        #expect(finding.firstSeen == leaked)
        #expect(finding.category == .leak)
        #expect(finding.subject == "GET /rooms/:room/events")
        #expect(finding.mailType == TypeIdentity(RoomMessage.self))
        #expect(finding.site?.fileID == "PonyExpressMonitorTests/OutlivedScopeTests.swift")
        #expect(finding.evidence(named: .outlived) == 1)
        #expect(finding.evidence(named: .leakedScopes) == 1)
        #expect(finding.evidence(named: .cleanScopes) == 4)
        #expect(finding.evidence(named: .oldestAge) == 3e9)
        #expect(finding.explanation.contains("1 of 5 such scopes leaked"), "\(finding.explanation)")
        let site = try #require(snapshot.sites.first { $0.site == finding.site })
        #expect(
            site.scopes == [
                ScopeCounts(name: "GET /rooms/:room/events", leakedScopes: 1, cleanScopes: 4, outlived: 1)
            ])
    }

    @Test("Clean scopes raise nothing, however many")
    func cleanScopesAreQuiet() {
        let (office, monitor, clock) = watchedOffice()
        for _ in 0..<200 { serve(office, leaks: false) }
        clock.advance(seconds: 1)
        #expect(monitor.snapshot().findings.isEmpty)
    }

    @Test("The finding holds while the leaked registration lives, and ends when it is unregistered")
    func holdsWhileAlive() {
        let (office, monitor, _) = watchedOffice()
        var leaked: RecipientId?
        office.scope("job", grace: .zero) { leaked = office.register { (_: Typing) in } }
        #expect(monitor.snapshot().findings.map(\.kind) == [.outlivedScope])
        office.unregister(leaked!)
        #expect(monitor.snapshot().findings.isEmpty)
    }

    @Test("A released screen pruned by the scope's check is no leak; one kept alive is")
    func weakRecipients() throws {
        let (office, monitor, _) = watchedOffice()
        // One site, as a screen's code is; the screen dies with the scope unless something keeps it.
        func open(keeping: Bool) -> Screen? {
            office.scope("SettingsScreen", grace: .zero) {
                let screen = Screen()
                office.register(screen, Screen.show)
                return keeping ? screen : nil
            }
        }
        _ = open(keeping: false)
        #expect(monitor.snapshot().findings.isEmpty)
        let kept = open(keeping: true)
        let finding = try #require(monitor.snapshot().findings.first)
        #expect(finding.kind == .outlivedScope)
        #expect(finding.evidence(named: .cleanScopes) == 1)
        #expect(finding.explanation.contains("1 of 2 such scopes leaked"))
        withExtendedLifetime(kept) {}
    }

    @Test("A registration said to outlive its scope, or made outside any, is never an outlivedScope finding")
    func outsideScopes() {
        let (office, monitor, _) = watchedOffice()
        office.scope("request", grace: .zero) {
            office.register(options: .outlivesScope) { (_: RoomMessage) in }
        }
        office.register { (_: RoomMessage) in }
        #expect(monitor.snapshot().findings(of: .outlivedScope).isEmpty)
    }

    @Test("A site that leaks one registration per scope is outlivedScope's, not also growingRegistrations'")
    func notReportedTwice() {
        let (office, monitor, clock) = watchedOffice()
        for _ in 0..<12 {
            for _ in 0..<5 { serve(office, leaks: true) }
            clock.advance(seconds: 1)
        }
        let snapshot = monitor.snapshot()
        #expect(snapshot.findings.map(\.kind) == [.outlivedScope])
        #expect(snapshot.findings.first?.evidence(named: .outlived) == 60)
    }

    @Test("`--allow outlivedScope` turns the rule off")
    func ruleCanBeTurnedOff() {
        let (office, monitor, _) = watchedOffice { $0.disabledRules = [.outlivedScope] }
        serve(office, leaks: true)
        #expect(monitor.snapshot().findings.isEmpty)
    }

    @Test("A scope with a grace period is judged after it, by the post office's timer")
    func graceThenFinding() {
        let (office, monitor, _) = watchedOffice()
        office.scope("job", grace: .milliseconds(100)) { office.register { (_: Typing) in } }
        #expect(monitor.snapshot().findings.isEmpty, "within the grace period")
        #expect(waitUntil(timeout: 10) { !monitor.snapshot().findings(of: .outlivedScope).isEmpty })
    }
}
