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
        office.post(Ping())
        let seenByFirst = try #require(monitor.snapshot(judgedBy: first).findings.first).firstSeen
        clock.advance(seconds: 3)
        // The second judge first sees it now; the first still remembers its own first sighting.
        let seenBySecond = try #require(monitor.snapshot(judgedBy: second).findings.first).firstSeen
        #expect(seenBySecond == seenByFirst + 3_000_000_000)
        #expect(try #require(monitor.snapshot(judgedBy: first).findings.first).firstSeen == seenByFirst)
        // The monitor's own judge was never asked: its first sighting is its first snapshot.
        #expect(try #require(monitor.snapshot().findings.first).firstSeen == seenBySecond)

        first.reset()
        clock.advance(seconds: 2)
        let afterReset = monitor.snapshot(judgedBy: first)
        #expect(afterReset.findings.first?.firstSeen == seenBySecond + 2_000_000_000)
        #expect(monitor.snapshot(judgedBy: second).findings.first?.firstSeen == seenBySecond)
        // Counters are the monitor's: no judge resets them.
        #expect(afterReset.totals.posts == 1)
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
