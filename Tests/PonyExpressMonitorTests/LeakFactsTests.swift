import PonyExpress
import PonyTestSupport
import Testing

@testable import PonyExpressMonitor

private struct Ping: Mail {}

/// The leak rule judged from facts (issue 37): a leak raised from one snapshot's facts is held from the next ones',
/// however old its registrations, and facts taken for a recording are judged again with other thresholds.
@Suite struct LeakFactsTests {
    /// Facts a recording keeps: gathered for any threshold, not the monitor's own.
    private func recorded(_ monitor: PostOfficeMonitor) throws -> RuleFacts {
        try #require(monitor.snapshot(keepingRecipientsOf: { _ in true }, factsInFull: true).ruleFacts)
    }

    @Test("facts taken for a recording find, with a lower minimum growth, a slow leak the app's threshold does not")
    func judgedAgainWithLowerGrowth() throws {
        let (office, monitor, clock) = watchedOffice()
        var kept: [TestRecipient] = []
        var facts: [RuleFacts] = []
        for _ in 0..<8 {
            let screen = TestRecipient()
            kept.append(screen)
            office.register(Ping.self, screen, TestRecipient.receive)
            clock.advance(seconds: 1)
            facts.append(try recorded(monitor))
        }
        #expect(monitor.snapshot().findings.isEmpty, "one a second for 8 s: 4 in the shortest window, fewer than 8")

        var settings = MonitorSettings()
        settings.leakMinimumGrowth = 3
        let judge = FindingJudge(judgingFactsWith: settings)
        var findings: [Finding] = []
        for step in facts {
            try judge.validate(for: step)
            findings = judge.judge(step)
        }
        let leak = try #require(findings.first)
        #expect(leak.kind == .growingRegistrations)
        #expect(leak.evidence(named: .windowSeconds) == 4)
        #expect(leak.evidence(named: .growth) == 4)
        #expect(leak.explanation.contains("TestRecipient objects registered for Ping at "), "\(leak.explanation)")

        // The same facts, judged again by a new judge, give the same findings.
        let again = FindingJudge(judgingFactsWith: settings)
        #expect(facts.map { again.judge($0) }.last == findings)
        #expect(kept.count == 8)
    }

    @Test("a viewer's window longer than the app's own, up to the history the app keeps, is judged from the facts")
    func longerWindowThanTheApps() throws {
        // The app keeps 120 s of history and judges leaks over 60 s: one registration every 12 s is too slow for it.
        let (office, monitor, clock) = watchedOffice { $0.historyLength = 120 }
        var longer = monitor.settings
        longer.leakWindow = 110
        let judge = FindingJudge(judgingFactsWith: longer)
        var kept: [TestRecipient] = []
        var findings: [Finding] = []
        for second in 0..<110 {
            if second.isMultiple(of: 12) {
                let screen = TestRecipient()
                kept.append(screen)
                office.register(Ping.self, screen, TestRecipient.receive)
            }
            clock.advance(seconds: 1)
            let snapshot = monitor.snapshot()
            #expect(snapshot.findings.isEmpty, "second \(second): the app's 60 s window holds 5 of them")
            let facts = try #require(snapshot.ruleFacts)
            try judge.validate(for: facts)
            findings = judge.judge(facts)
        }
        let leak = try #require(findings.first, "a 110 s window holds 9 of them")
        #expect(leak.kind == .growingRegistrations)
        #expect((leak.evidence(named: .windowSeconds) ?? 0) > 60)
        #expect(kept.count == 10)
    }

    @Test("a leak raised from facts holds from later facts after its window leaves the history, then is retracted")
    func heldFromFactsAlone() throws {
        let (office, monitor, clock) = watchedOffice()
        let judge = FindingJudge(judgingFactsWith: monitor.settings)
        var carts: [(screen: TestRecipient, id: RecipientId)] = []
        var last: (monitor: [Finding], facts: [Finding]) = ([], [])
        func step() throws {
            clock.advance(seconds: 1)
            let snapshot = monitor.snapshot()
            let facts = try #require(snapshot.ruleFacts)
            last = (snapshot.findings, judge.judge(facts))
        }
        for _ in 0..<25 {
            let screen = TestRecipient()
            carts.append((screen, office.register(Ping.self, screen, TestRecipient.receive)))
            try step()
        }
        #expect(last.facts.map(\.kind) == [.growingRegistrations])
        // Twice the kept history of nothing: the leak's window is long gone from what a snapshot carries.
        for _ in 0..<130 { try step() }
        let held = try #require(last.facts.first)
        #expect(
            held.explanation.contains(
                "no longer growing past the threshold, 25 of the registrations that raised it still alive"))
        #expect(last.facts == last.monitor, "a judge far from the app holds what the app's own judge holds")

        // Ten end: 15 still alive, more than 8.
        for cart in carts.prefix(10) { office.unregister(cart.id) }
        try step()
        #expect(last.facts.first?.explanation.contains("15 of the registrations that raised it still alive") == true)
        for cart in carts.dropFirst(10).prefix(10) { office.unregister(cart.id) }
        clock.advance(seconds: 1)
        let snapshot = monitor.snapshot()
        let judged = judge.judgeWithRetractions(try #require(snapshot.ruleFacts))
        #expect(judged.holding.isEmpty)
        let retracted = try #require(judged.retracted.first)
        #expect(retracted.retraction?.contains("the registrations that raised it ended (5 of them left") == true)
        #expect(judged.retracted == snapshot.retractedFindings)
        #expect(carts.count == 25)
    }

    @Test("a judge that misses more than the kept history of facts holds its leak and says it could not re-check it")
    func missedFacts() throws {
        let (office, monitor, clock) = watchedOffice()
        let judge = FindingJudge(judgingFactsWith: monitor.settings)
        var kept: [TestRecipient] = []
        var lastSecond: Int64 = 0
        for _ in 0..<12 {
            for _ in 0..<2 {
                let screen = TestRecipient()
                kept.append(screen)
                office.register(Ping.self, screen, TestRecipient.receive)
            }
            clock.advance(seconds: 1)
            let facts = try #require(monitor.snapshot().ruleFacts)
            lastSecond = facts.second
            #expect(judge.judge(facts).count <= 1)
        }
        #expect(judge.judge(try #require(monitor.snapshot().ruleFacts)).count == 1)
        clock.advance(seconds: 100)
        let late = judge.judge(try #require(monitor.snapshot().ruleFacts))
        let finding = try #require(late.first)
        #expect(
            finding.explanation.hasSuffix(
                "still alive at second \(lastSecond), the last this viewer could check (it missed the app's changes "
                    + "since)"), "\(finding.explanation)")
        #expect(kept.count == 24)
    }

    @Test("facts gathered for the app's minimum growth refuse a lower one, and say which")
    func refusesALowerGrowth() throws {
        let (_, monitor, _) = watchedOffice()
        let facts = try #require(monitor.snapshot().ruleFacts)
        var lower = MonitorSettings()
        lower.leakMinimumGrowth = 4
        do {
            try FindingJudge(judgingFactsWith: lower).validate(for: facts)
            Issue.record("a minimum growth of 4 judged facts gathered at 8")
        } catch {
            #expect(error.setting == "growingRegistrations.minimumGrowth")
            #expect(
                error.expected
                    == "at least 8, the growth at which the app gathered a site for these facts (a recording's facts "
                    + "gather every site that grew)")
        }
        var higher = MonitorSettings()
        higher.leakMinimumGrowth = 20
        try FindingJudge(judgingFactsWith: higher).validate(for: facts)
    }

    @Test("facts without the leak rule's (before wire protocol 1.8) judge every other rule and no leak")
    func olderFacts() throws {
        let (_, monitor, _) = watchedOffice()
        var facts = try #require(monitor.snapshot().ruleFacts)
        #expect(FindingJudge.kindsJudged(from: facts).contains(.growingRegistrations))
        facts.leaks = nil
        let others = Set(FindingRules.all.map(\.kind)).subtracting([.growingRegistrations])
        #expect(FindingJudge.kindsJudged(from: facts) == others)
    }

    @Test("the registry notes at most its capacity of changed seconds, then says changes were lost until they expire")
    func watchIsBounded() {
        var watch = LeakWatch()
        let origin: Nanoseconds = 10_000_000_000
        watch.watch(1, seconds: [], now: 0)
        for second in 0..<UInt64(LeakWatch.capacity + 10) {
            watch.note(row: 1, registeredAt: origin + second * 1_000_000_000, origin: origin, now: 5)
        }
        #expect(watch.changed.count == LeakWatch.capacity)
        #expect(watch.lostAt == 5)
        watch.note(row: 2, registeredAt: origin, origin: origin, now: 6)
        #expect(watch.changed.count == LeakWatch.capacity, "an unwatched row notes nothing")
        watch.expire(before: 6)
        #expect(watch.changed.isEmpty)
        #expect(watch.lostAt == nil)
        // Registered 2.5 s before the origin: second -3, counted down like the seconds after it.
        watch.note(row: 1, registeredAt: origin - 2_500_000_000, origin: origin, now: 7)
        #expect(watch.changed == [LeakWatch.Pair(row: 1, second: -3): 7])
        watch.forget(row: 1)
        #expect(watch.changed.isEmpty && watch.rows.isEmpty)
    }
}
