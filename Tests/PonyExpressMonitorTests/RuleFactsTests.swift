import Foundation
import PonyExpress
import Testing

@testable import PonyExpressMonitor

private struct Ping: Mail {}
private final class Listener: Sendable {
    func handle(_ mail: Ping) {}
}

/// Rule facts (issue 37): what the rules judge, without thresholds, judged again away from the monitor with other
/// thresholds, the same way every time.
@Suite struct RuleFactsTests {
    @Test("a judge of facts finds what the monitor's judge finds with the same rules, and what other thresholds find")
    func judgedAgain() throws {
        let (office, monitor, clock) = watchedOffice { $0.oversubscriptionThreshold = 2 }
        let listener = Listener()
        for _ in 0..<3 { office.register { (_: Ping) in } }
        // The same object three times: a duplicate registration, a rule without parameters.
        for _ in 0..<3 { office.register(listener, Listener.handle) }
        office.post(Ping())
        clock.advance(seconds: 2)
        let snapshot = monitor.snapshot()
        let facts = try #require(snapshot.ruleFacts)
        #expect(Set(snapshot.findings.map(\.kind)) == [.oversubscribed, .duplicateRegistration])

        let same = FindingJudge(judgingFactsWith: monitor.settings)
        #expect(same.judge(facts, datingFrom: snapshot.findings) == snapshot.findings)

        var lenient = MonitorSettings()
        lenient.oversubscriptionThreshold = 10
        let judged = FindingJudge(judgingFactsWith: lenient).judge(facts)
        #expect(judged.map(\.kind) == [.duplicateRegistration])
        var strict = MonitorSettings()
        strict.oversubscriptionThreshold = 5
        #expect(
            FindingJudge(judgingFactsWith: strict).judge(facts).first { $0.kind == .oversubscribed }?.explanation
                == "Ping has 6 live recipients, more than the threshold of 5")

        // Judged twice by two judges, and by one judge twice, the same facts give the same findings.
        let twice = FindingJudge(judgingFactsWith: strict)
        let first = twice.judge(facts)
        #expect(twice.judge(facts) == first)
        #expect(FindingJudge(judgingFactsWith: strict).judge(facts) == first)
    }

    @Test("a judge's memory dates a finding from its first sighting, or from a recorded one that is earlier")
    func dating() throws {
        let (office, monitor, clock) = watchedOffice { $0.oversubscriptionThreshold = 2 }
        for _ in 0..<3 { office.register { (_: Ping) in } }
        let early = monitor.snapshot()
        clock.advance(seconds: 5)
        let late = monitor.snapshot()
        let lateFacts = try #require(late.ruleFacts)
        let judge = FindingJudge(judgingFactsWith: monitor.settings)
        #expect(judge.judge(try #require(early.ruleFacts)).first?.firstSeen == early.time)
        #expect(judge.judge(lateFacts).first?.firstSeen == early.time, "remembered from the first judgment")
        // A judge that starts late dates it from the app's history its first facts carry: 3 live at the end of second
        // 0, so from second 1 on.
        let fresh = FindingJudge(judgingFactsWith: monitor.settings)
        #expect(fresh.judge(lateFacts).first?.firstSeen == early.time + 1_000_000_000)
        #expect(
            FindingJudge(judgingFactsWith: monitor.settings).judge(lateFacts, datingFrom: early.findings).first?
                .firstSeen == early.time, "a recorded finding's date, from before the judge began")
    }

    @Test("facts refuse a stall bound other than the app's and a window longer than the history it kept")
    func refusals() throws {
        let (_, monitor, _) = watchedOffice()
        let facts = try #require(monitor.snapshot().ruleFacts)
        var otherBound = MonitorSettings()
        try otherBound.setParameter(named: "stalledQueue.wait", to: 0.5)
        #expect(throws: MonitorSettingsError.self) {
            try FindingJudge(judgingFactsWith: otherBound).validate(for: facts)
        }
        var longWindow = MonitorSettings()
        try longWindow.setParameter(named: "risingQueueWait.window", to: 600)
        do {
            try FindingJudge(judgingFactsWith: longWindow).validate(for: facts)
            Issue.record("a 600 s window judged 60 s of history")
        } catch {
            #expect(error.setting == "risingQueueWait.window")
            #expect(error.expected == "at most 60 s, the history the app's monitor kept (its historyLength)")
        }
        try FindingJudge(judgingFactsWith: MonitorSettings()).validate(for: facts)
        // The monitor counted living recipients above its own threshold (100) only: asking the post office about
        // every recipient costs the app, so a lower threshold needs facts taken for a recording.
        var lower = MonitorSettings()
        lower.oversubscriptionThreshold = 50
        do {
            try FindingJudge(judgingFactsWith: lower).validate(for: facts)
            Issue.record("a threshold of 50 judged facts counted above 100")
        } catch {
            #expect(error.setting == "oversubscribed.threshold")
            #expect(
                error.expected
                    == "at least 100, the count above which the app counted living recipients for these facts (a "
                    + "recording's facts count them all)")
        }
    }
}

/// Facts read from a recording are input from outside: however extreme, they are judged, never trapped on.
@Suite struct RuleFactsFromOutsideTests {
    @Test("extreme values are judged and printed; a run profile of the wrong size does not decode")
    func extremeFacts() throws {
        let mailType = TypeIdentity(Ping.self)
        let site = SourceLocation(fileID: "App/Screen.swift", line: 1)
        let office = PostOffice()
        let id = office.register { (_: Ping) in }
        let info = try #require(office.recipients(of: Ping.self).first { $0.id == id })
        var runs = RunProfile()
        for _ in 0..<10 { runs.record(.max) }
        let huge = UInt64.max
        let facts = RuleFacts(
            time: huge, second: .max, stallWait: 0.25, keptSeconds: .max, pruneWindow: 0, livingCountedAbove: 1,
            crowds: [
                OversubscribedRule.Crowd(mailType: mailType, living: .max, topSite: site, livingFromTopSite: .max)
            ],
            prunes: [HighPruneRateRule.SitePrunes(mailType: mailType, site: site, kind: .block, prunes: huge)],
            queues: [
                RuleFacts.QueueSeconds(
                    label: "q", deliveries: [1, 1, 1, 1, 1], waits: [1, 10, huge, huge, huge],
                    overBound: [huge, huge, huge, huge, huge], maxWaits: [huge, huge, huge, huge, huge],
                    busiestMailType: mailType, waiting: [], firstMailType: nil, busiest: nil,
                    estimatedBacklog: .infinity)
            ],
            postedTypes: [
                SlowRecipientRule.PostedType(
                    mailType: mailType, receivers: 2,
                    sites: [
                        SlowRecipientRule.PostedSite(
                            site: site, receivers: 1, deliveries: huge, handlerTime: huge, longestRun: huge,
                            timedRuns: huge, runs: runs, busiest: info, busiestTime: huge, isInherited: false),
                        // A site with no busiest receiver: none can be named, so it is not reported.
                        SlowRecipientRule.PostedSite(
                            site: site, receivers: 0, deliveries: 2, handlerTime: 0, longestRun: 0, timedRuns: 0,
                            runs: RunProfile(), busiest: nil, busiestTime: 0, isInherited: false),
                    ])
            ],
            leaks: extremeLeaks(mailType: mailType, site: site))
        var settings = MonitorSettings()
        settings.oversubscriptionThreshold = 1
        settings.leakMinimumGrowth = 1
        let judge = FindingJudge(judgingFactsWith: settings)
        let findings = judge.judge(facts)
        #expect(
            Set(findings.map(\.kind)) == [
                .oversubscribed, .highPruneRate, .stalledQueue, .risingQueueWait, .slowRecipient, .growingRegistrations,
            ],
            "\(findings.map(\.explanation))")
        #expect(findings.allSatisfy { !$0.explanation.isEmpty })
        // The leak is held from the next facts, whose counts and seconds are as extreme; then from facts that go back
        // in time, which drop it.
        var next = facts
        next.leaks?.sites = []
        #expect(judge.judge(next).contains { $0.kind == .growingRegistrations })
        next.second = .min
        #expect(judge.judge(next).allSatisfy { $0.kind != .growingRegistrations })

        struct Wrapped: Codable { var runs: RunProfile }
        let bent = Data(#"{"runs":{"cells":[1,2,3]}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Wrapped.self, from: bent) }
        let whole = try JSONEncoder().encode(Wrapped(runs: runs))
        #expect(try JSONDecoder().decode(Wrapped.self, from: whole).runs == runs)
    }
}

extension RuleFactsFromOutsideTests {
    /// The leak rule's facts at the limits of their types: seconds from `Int64.min` to `.max`, counts of `Int.max`.
    private func extremeLeaks(
        mailType: TypeIdentity, site: PonyExpress.SourceLocation
    ) -> GrowingRegistrationsRule.Facts {
        let series = [Int.min, -1, 0] + (0..<100).map { $0 * 1_000_000 } + [Int.max]
        // One second in each quarter of the shortest window that ends at `Int64.max`.
        let seconds: [Int64] = [.min, -1, .max - 4, .max - 3, .max - 2, .max - 1]
        let counts = [3, -5, 1, 1, Int.max / 4, Int.max / 4]
        return GrowingRegistrationsRule.Facts(
            growthFloor: 1,
            sites: [
                GrowingRegistrationsRule.GrowingSite(
                    mailType: mailType, site: site, kind: .block, firstSecond: .min, live: .max, liveSeries: series,
                    registeredSeconds: seconds, registeredCounts: counts, registeredBefore: 1, oldestAge: .max,
                    medianAge: .max, lifetimes: LifetimeSummary(ended: .max, median: .max, p90: .max),
                    olderThanP90Lifetime: .max)
            ],
            changes: [
                GrowingRegistrationsRule.SiteSeconds(
                    mailType: mailType, site: site, kind: .block, seconds: seconds, alive: counts)
            ],
            changesLostAt: .max)
    }

    @Test("evidence and units of any size print without trapping")
    func extremeEvidence() {
        for value in [1e30, -1e30, .infinity, -.infinity, .nan, 1.8446744073709552e19, 9.3e18] {
            for unit in [Evidence.Unit.count, .nanoseconds, .perSecond, .share] {
                #expect(!Evidence(name: "x", value: value, unit: unit).formattedValue(micro: "µ").isEmpty)
            }
        }
    }
}
