import PonyExpress
import PonyExpressMonitor
import Testing

private struct Ping: Mail {}

/// Judges of one monitor (issue 37): each consumer's rules and memory are its own, and taking a snapshot with one
/// changes nothing another sees.
@Suite struct FindingJudgeTests {
    /// A monitor over three recipients of `Ping`, with the oversubscription threshold at 2: a finding from the start.
    private func oversubscribed() -> (PostOfficeMonitor, ManualClock, PostOffice) {
        let (office, monitor, clock) = watchedOffice { $0.oversubscriptionThreshold = 2 }
        for _ in 0..<3 { office.register { (_: Ping) in } }
        return (monitor, clock, office)
    }

    @Test("each judge applies its own rules and thresholds to the same figures")
    func ownRules() throws {
        let (monitor, _, _) = oversubscribed()
        var lenient = RuleOverrides()
        try lenient.set("oversubscribed.threshold", to: 5)
        var allowing = RuleOverrides()
        allowing.disable([.oversubscribed])
        let kinds = { (judge: FindingJudge) in monitor.snapshot(judgedBy: judge).findings.map(\.kind) }
        #expect(kinds(monitor.makeJudge()) == [.oversubscribed])
        #expect(kinds(try monitor.makeJudge(overriding: lenient)).isEmpty)
        #expect(kinds(try monitor.makeJudge(overriding: allowing)).isEmpty)
        var stricter = RuleOverrides()
        try stricter.set("oversubscribed.threshold", to: 1)
        let explanation = monitor.snapshot(judgedBy: try monitor.makeJudge(overriding: stricter)).findings.first?
            .explanation
        #expect(explanation == "Ping has 3 live recipients, more than the threshold of 1")
        // A rule the monitor's settings turn off is on for a judge that turns it on.
        let (office, quiet, _) = watchedOffice {
            $0.oversubscriptionThreshold = 2
            $0.disabledRules = [.oversubscribed]
        }
        for _ in 0..<3 { office.register { (_: Ping) in } }
        var warning = RuleOverrides()
        warning.enable([.oversubscribed])
        #expect(quiet.snapshot().findings.isEmpty)
        #expect(
            quiet.snapshot(judgedBy: try quiet.makeJudge(overriding: warning)).findings.map(\.kind) == [.oversubscribed]
        )
    }

    @Test("a snapshot advances only its own judge's memory, and a judge's reset touches nothing else")
    func ownMemory() throws {
        let (monitor, clock, office) = oversubscribed()
        let first = monitor.makeJudge()
        let second = monitor.makeJudge()
        var other = RuleOverrides()
        try other.set("oversubscribed.threshold", to: 1)
        let otherRules = try monitor.makeJudge(overriding: other)
        office.post(Ping())
        let start = try #require(monitor.snapshot(judgedBy: first).findings.first).firstSeen
        clock.advance(seconds: 3)
        // A judge of the same rules that looks later dates the finding from the app's first sighting; one that judges
        // the kind with other parameters, from the history its first facts carry (3 live at the end of second 0).
        #expect(monitor.snapshot(judgedBy: second).findings.first?.firstSeen == start)
        #expect(monitor.snapshot().findings.first?.firstSeen == start)
        #expect(monitor.snapshot(judgedBy: otherRules).findings.first?.firstSeen == start + 1_000_000_000)

        // A reset dates the findings that still hold from the next judgment: that judge's only.
        first.reset()
        clock.advance(seconds: 2)
        let afterReset = monitor.snapshot(judgedBy: first)
        #expect(afterReset.findings.first?.firstSeen == start + 5_000_000_000)
        #expect(monitor.snapshot(judgedBy: second).findings.first?.firstSeen == start)
        // Counters are the monitor's: no judge resets them.
        #expect(afterReset.totals.posts == 1)
    }

    @Test("a finding missed for a snapshot keeps its date; one no judge has seen for a minute is new when it returns")
    func sightingsOutliveAGap() throws {
        let (office, monitor, clock) = watchedOffice { $0.oversubscriptionThreshold = 2 }
        let recipients = (0..<3).map { _ in office.register { (_: Ping) in } }
        let judge = monitor.makeJudge()
        let start = try #require(monitor.snapshot(judgedBy: judge).findings.first).firstSeen
        office.unregister(recipients[0])
        clock.advance(seconds: 1)
        #expect(monitor.snapshot(judgedBy: judge).findings.isEmpty)
        var again = office.register { (_: Ping) in }
        clock.advance(seconds: 1)
        #expect(monitor.snapshot(judgedBy: judge).findings.first?.firstSeen == start)
        office.unregister(again)
        clock.advance(seconds: 61)
        #expect(monitor.snapshot(judgedBy: judge).findings.isEmpty)
        again = office.register { (_: Ping) in }
        #expect(monitor.snapshot(judgedBy: judge).findings.first?.firstSeen == start + 63_000_000_000)
        office.unregister(again)
    }

    @Test("the first sightings are bounded: at most 4,096 findings, each forgotten a minute after it was last seen")
    func sightingsAreBounded() {
        let ledger = SightingLedger()
        for index in 0..<10_000 {
            #expect(ledger.sighted("finding \(index)", at: UInt64(index) * 1_000_000) == UInt64(index) * 1_000_000)
        }
        #expect(ledger.count <= SightingLedger.capacity)
        #expect(ledger.sighted("finding 9999", at: 10_000_000_000) == 9_999_000_000)
        _ = ledger.sighted("later", at: 10_000_000_000 + SightingLedger.forgetAfter + 1)
        #expect(ledger.count == 1)
    }

    @Test("a judge the monitor cannot serve is refused, naming the parameter and what this monitor accepts")
    func refusals() throws {
        let monitor = PostOfficeMonitor(clock: ManualClock())
        var longWindow = RuleOverrides()
        try longWindow.set("stalledQueue.window", to: 600)
        #expect(
            throws: MonitorSettingsError(
                setting: "stalledQueue.window", value: "600",
                expected: "at most 60 s, the history this app's monitor keeps (its MonitorSettings.historyLength)")
        ) { try monitor.makeJudge(overriding: longWindow) }
        var otherWait = RuleOverrides()
        try otherWait.set("stalledQueue.wait", to: 0.5)
        #expect(throws: MonitorSettingsError.self) { try monitor.makeJudge(overriding: otherWait) }
        // The same wait as the monitor's is no change.
        var sameWait = RuleOverrides()
        try sameWait.set("stalledQueue.wait", to: 0.25)
        _ = try monitor.makeJudge(overriding: sameWait)
        // A parameter it does not know (from a peer, past `set`'s check) is refused; a kind it does not know is
        // not one of its rules, and is ignored.
        var unknown = RuleOverrides()
        unknown.parameters["nope.threshold"] = 1
        #expect(throws: MonitorSettingsError.self) { try monitor.makeJudge(overriding: unknown) }
        var newerKind = RuleOverrides()
        newerKind.disabled = ["aRuleOfANewerViewer"]
        newerKind.enabled = ["anotherOne"]
        #expect(try monitor.makeJudge(overriding: newerKind).settings == monitor.settings)
        var notANumber = RuleOverrides()
        #expect(throws: MonitorSettingsError.self) { try notANumber.set("stalledQueue.wait", to: .nan) }
        #expect(notANumber.isEmpty)
    }
}
