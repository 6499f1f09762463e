import PonyExpress
import PonyTestSupport
import Testing

@testable import PonyExpressMonitor

private struct Ping: Mail {}

/// A judge that starts late (a viewer attaching to an app that has run for a while) dates the findings of its first
/// facts from the app's history they carry, not from the moment it attached (issue 37: "a late viewer sees history").
@Suite struct HistoryDatingTests {
    private static let second: Nanoseconds = 1_000_000_000

    /// Facts at second 100 of an app that keeps 60 s, with one queue whose last `stalled` seconds of 62 stalled
    /// (every delivery over the bound).
    private func facts(stalledFor stalled: Int, at second: Int64 = 100, crowd: Int = 0) -> RuleFacts {
        let calm = 62 - stalled
        let deliveries = [UInt64](repeating: 10, count: 62)
        let over = [UInt64](repeating: 0, count: calm) + [UInt64](repeating: 10, count: stalled)
        let mailType = TypeIdentity(Ping.self)
        return RuleFacts(
            time: Nanoseconds(second) * Self.second + 500_000_000, second: second, stallWait: 0.25, keptSeconds: 60,
            pruneWindow: 60, livingCountedAbove: 100,
            crowds: crowd > 0
                ? [OversubscribedRule.Crowd(mailType: mailType, living: crowd, topSite: nil, livingFromTopSite: 0)]
                : [],
            queues: [
                RuleFacts.QueueSeconds(
                    label: "db", deliveries: deliveries, waits: over.map { $0 * 400_000_000 }, overBound: over,
                    maxWaits: over.map { $0 > 0 ? 400_000_000 : 1_000 }, busiestMailType: mailType, waiting: [mailType],
                    firstMailType: mailType, busiest: nil, estimatedBacklog: 1)
            ],
            leaks: GrowingRegistrationsRule.Facts(growthFloor: 8))
    }

    @Test("a queue stalled 20 s before a judge's first facts is dated from when the rule first raised it, 17 s before")
    func datedFromHistory() throws {
        let facts = facts(stalledFor: 20)
        let stall = try #require(FindingJudge(judgingFactsWith: MonitorSettings()).judge(facts).first)
        #expect(stall.kind == .stalledQueue)
        // Stalled seconds 80 to 99; a window of 5 s with 3 of them over the bound first holds at the end of second 82.
        #expect(facts.time - stall.firstSeen == 17 * Self.second)
        #expect(!stall.explanation.contains("history"), "\(stall.explanation)")
    }

    @Test("one stalled for all the history the app keeps is dated from its start, and says it is older")
    func beforeHistory() throws {
        let facts = facts(stalledFor: 62)
        let judge = FindingJudge(judgingFactsWith: MonitorSettings())
        let stall = try #require(judge.judge(facts).first)
        #expect(facts.time - stall.firstSeen == 59 * Self.second)
        #expect(
            stall.explanation.hasSuffix(
                "; it held before the 60 s of history the app keeps began, so it is older than it is dated"),
            "\(stall.explanation)")
        // It keeps saying so while it holds, with the same date.
        var later = facts
        later.time += Self.second
        later.second += 1
        let again = try #require(judge.judge(later).first)
        #expect(again.firstSeen == stall.firstSeen)
        #expect(again.explanation.hasSuffix("so it is older than it is dated"))
    }

    @Test("an app younger than its history: dated within it, and not said to be older")
    func youngApp() throws {
        let facts = facts(stalledFor: 62, at: 30)
        let stall = try #require(FindingJudge(judgingFactsWith: MonitorSettings()).judge(facts).first)
        #expect(facts.time - stall.firstSeen == 27 * Self.second, "it first held at the end of second 3")
        #expect(!stall.explanation.contains("history"), "\(stall.explanation)")
    }

    @Test("facts crafted to be large are dated within a bounded walk: from the earliest second reached, no older")
    func craftedFacts() throws {
        // 200 queues stalled over 3,600 seconds each, in facts that say the app keeps an hour.
        var facts = facts(stalledFor: 62, at: 100_000)
        facts.keptSeconds = 3_600
        let queue = facts.queues[0]
        facts.queues = (0..<200).map { index in
            var stalled = queue
            stalled.label = "q\(index)"
            stalled.deliveries = [UInt64](repeating: 10, count: 3_600)
            stalled.overBound = [UInt64](repeating: 10, count: 3_600)
            stalled.waits = [UInt64](repeating: 4_000_000_000, count: 3_600)
            stalled.maxWaits = [UInt64](repeating: 400_000_000, count: 3_600)
            return stalled
        }
        let findings = FindingJudge(judgingFactsWith: MonitorSettings()).judge(facts)
        #expect(findings.count == 200)
        // Each step back copies 200 x 3,600 x 4 values: the walk stops after a few, within its budget.
        let steps = Nanoseconds(HistoryDates.budget / (200 * 3_600 * 4) + 1)
        #expect(findings.allSatisfy { facts.time - $0.firstSeen == steps * Self.second }, "\(findings[0].firstSeen)")
        #expect(findings.allSatisfy { !$0.explanation.contains("history") })
    }

    @Test("a crowd is dated from when its sites' live count passed the threshold, prunes from when their rate did")
    func crowdsAndPrunes() throws {
        var facts = facts(stalledFor: 0)
        let mailType = TypeIdentity(Ping.self)
        let site = SourceLocation(fileID: "App/Screen.swift", line: 3)
        // 150 live now; 90 until 25 s ago, then 150: over the threshold of 100 for the last 25 seconds.
        let live = [Int](repeating: 90, count: 37) + [Int](repeating: 150, count: 25)
        facts.crowds = [
            OversubscribedRule.Crowd(
                mailType: mailType, living: 150, topSite: site, livingFromTopSite: 150, liveSeries: live)
        ]
        // 20 prunes a second for the last 40 seconds of 62, none before: 800 in the long window of 60 s, 13.3/s,
        // over the threshold of 10/s while the window holds 600 or more, which it did from 30 s in: 10 s ago.
        let perSecond = [UInt64](repeating: 0, count: 22) + [UInt64](repeating: 20, count: 40)
        facts.prunes = [
            HighPruneRateRule.SitePrunes(
                mailType: mailType, site: site, kind: .block, prunes: 800, perSecond: perSecond)
        ]
        let findings = FindingJudge(judgingFactsWith: MonitorSettings()).judge(facts)
        let crowd = try #require(findings.first { $0.kind == .oversubscribed })
        #expect(facts.time - crowd.firstSeen == 24 * Self.second)
        let prunes = try #require(findings.first { $0.kind == .highPruneRate })
        #expect(facts.time - prunes.firstSeen == 10 * Self.second)
        // Facts of 1.8 carry no series: dated from the facts judged, 100 s into the app's run, and said to be maybe
        // older, for as long as they hold.
        facts.crowds[0].liveSeries = nil
        facts.prunes[0].perSecond = nil
        let judge = FindingJudge(judgingFactsWith: MonitorSettings())
        let undated = judge.judge(facts)
        #expect(undated.count == 2 && undated.allSatisfy { $0.firstSeen == facts.time })
        let note =
            "; it held when first judged here, 100 s after the app's monitor started, and the app records nothing "
            + "that dates it, so it may be older than it is dated"
        #expect(undated.allSatisfy { $0.explanation.hasSuffix(note) }, "\(undated.map(\.explanation))")
        var later = facts
        later.time += Self.second
        later.second += 1
        #expect(judge.judge(later).allSatisfy { $0.explanation.hasSuffix(note) })
        // A finding a recording dates from before is not said to be maybe older.
        let recorded = undated.map { $0.seen(at: facts.time - 30 * Self.second) }
        let replayed = FindingJudge(judgingFactsWith: MonitorSettings()).judge(facts, datingFrom: recorded)
        #expect(replayed.allSatisfy { !$0.explanation.contains("may be older") && $0.firstSeen < facts.time })
    }

    @Test("the monitor's facts carry a crowd's live series: a late judge dates it from when it passed the threshold")
    func crowdFromMonitor() throws {
        let (office, monitor, clock) = watchedOffice()
        for _ in 0..<50 { office.register { (_: Ping) in } }
        clock.advance(seconds: 10)
        let crowded = clock.now()
        for _ in 0..<100 { office.register { (_: Ping) in } }
        clock.advance(seconds: 20)
        let facts = try #require(monitor.unjudgedSnapshot(keepingRecipientsOf: { _ in true }, factsFor: .any).ruleFacts)
        #expect(facts.crowds.first?.liveSeries?.last == 150)
        let crowd = try #require(
            FindingJudge(judgingFactsWith: monitor.settings).judge(facts).first { $0.kind == .oversubscribed })
        // Dated to the whole second it was first seen over the threshold at its end.
        #expect(crowd.firstSeen >= crowded && crowd.firstSeen - crowded <= Self.second, "\(crowd.firstSeen - crowded)")
    }

    @Test("a crowd whose sites are all beyond the site table's capacity has no series, and says it may be older")
    func crowdBeyondCapacity() throws {
        struct Other: Mail {}
        let (office, monitor, clock) = watchedOffice {
            $0.siteCapacity = 1
            $0.oversubscriptionThreshold = 2
        }
        office.register { (_: Other) in }
        for _ in 0..<3 { office.register { (_: Ping) in } }
        clock.advance(seconds: 5)
        let facts = try #require(monitor.unjudgedSnapshot(keepingRecipientsOf: { _ in true }, factsFor: .any).ruleFacts)
        #expect(facts.crowds.first { $0.mailType == TypeIdentity(Ping.self) }?.liveSeries == nil)
        let crowd = try #require(
            FindingJudge(judgingFactsWith: monitor.settings).judge(facts).first { $0.kind == .oversubscribed })
        #expect(crowd.firstSeen == facts.time)
        #expect(crowd.explanation.hasSuffix("so it may be older than it is dated"), "\(crowd.explanation)")
    }

    @Test("a duplicate registration is dated from the object's second registration, by any judge however late")
    func duplicateDatedByTheApp() throws {
        let (office, monitor, clock) = watchedOffice()
        let screen = TestRecipient()
        clock.advance(seconds: 5)
        office.register(Ping.self, screen, TestRecipient.receive)
        clock.advance(seconds: 10)
        let second = clock.now()
        office.register(Ping.self, screen, TestRecipient.receive)
        clock.advance(seconds: 30)
        // A viewer attaching now, judging the facts the agent would send it.
        let facts = try #require(monitor.unjudgedSnapshot(keepingRecipientsOf: { _ in true }, factsFor: .any).ruleFacts)
        let late = FindingJudge(judgingFactsWith: monitor.settings).judge(facts)
        let duplicate = try #require(late.first { $0.kind == .duplicateRegistration })
        #expect(duplicate.firstSeen == second)
        // The app's own judge, first asked now, says the same.
        #expect(monitor.snapshot().findings.first { $0.kind == .duplicateRegistration }?.firstSeen == second)
        withExtendedLifetime(screen) {}
    }

    @Test("only the first facts are dated from history; a rule without history dates from the facts it was raised in")
    func onlyFirstFacts() throws {
        let judge = FindingJudge(judgingFactsWith: MonitorSettings())
        let calm = facts(stalledFor: 0, crowd: 150)
        let crowded = try #require(judge.judge(calm).first)
        #expect(crowded.kind == .oversubscribed)
        #expect(crowded.firstSeen == calm.time, "facts without a crowd series, as 1.8 sent")
        // Later facts show a stall that began 20 s earlier: this judge watched it begin, so it is dated now.
        var stalled = facts(stalledFor: 20)
        stalled.time = calm.time + Self.second
        stalled.second = calm.second + 1
        let stall = try #require(judge.judge(stalled).first { $0.kind == .stalledQueue })
        #expect(stall.firstSeen == stalled.time)
    }
}
