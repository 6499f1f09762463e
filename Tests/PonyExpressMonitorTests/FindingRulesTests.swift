import PonyExpress
import PonyExpressMonitor
import Testing

private struct Ping: Mail {}

/// The list of rules, their categories and settings: what `ponytop --list-rules`, `--allow` and `--rule-setting`
/// stand on.
@Suite struct FindingRulesTests {
    @Test func everyRuleHasAKindACategoryAMeaningAndValidDefaults() throws {
        let kinds = FindingRules.all.map(\.kind)
        #expect(Set(kinds).count == kinds.count)
        #expect(
            kinds == [
                .oversubscribed, .duplicateRegistration, .outlivedScope, .growingRegistrations, .highPruneRate,
                .slowRecipient,
                .stalledQueue, .risingQueueWait,
            ])
        #expect(FindingRules.all.allSatisfy { !$0.summary.isEmpty })
        for parameter in FindingRules.parameters {
            #expect(parameter.accepts(parameter.defaultValue), "\(parameter.name)")
            #expect(parameter.name.hasPrefix(parameter.kind.rawValue + "."))
        }
        #expect(Finding.Kind.highPruneRate.category == .churn)
        #expect(Finding.Kind.growingRegistrations.category == .leak)
        #expect(Finding.Kind.outlivedScope.category == .leak)
        try MonitorSettings().validate()
    }

    @Test func aRuleTurnedOffReportsNothing() {
        let (office, monitor, _) = watchedOffice {
            $0.oversubscriptionThreshold = 2
            $0.disabledRules = [.oversubscribed]
        }
        for _ in 0..<3 { office.register { (_: Ping) in } }
        #expect(monitor.snapshot().findings.isEmpty)
    }

    @Test func aParameterIsSetByNameOrByItsTypedProperty() throws {
        var settings = MonitorSettings()
        try settings.setParameter(named: "oversubscribed.threshold", to: 7)
        #expect(settings.oversubscriptionThreshold == 7)
        settings.stalledQueueWait = 0.5
        let wait = try #require(FindingRules.parameters.first { $0.name == "stalledQueue.wait" })
        #expect(settings[wait] == 0.5)
        #expect(throws: MonitorSettingsError.self) { try settings.setParameter(named: "stalledQueue.wait", to: 0) }
        do {
            try settings.setParameter(named: "oversubscribed.threshold", to: 2.5)
        } catch {
            #expect(
                error.description
                    == "invalid monitor setting oversubscribed.threshold = 2.5: expected a whole number from 1 to 100000000"
            )
        }
        do {
            try settings.setParameter(named: "nope.threshold", to: 1)
        } catch {
            #expect(error.description.hasPrefix("invalid monitor setting nope.threshold = 1: expected one of "))
        }
    }

    @Test func validationAndClampingCoverRuleParameters() {
        var settings = MonitorSettings()
        settings.slowRecipientShare = 1.5
        #expect(
            throws: MonitorSettingsError(
                setting: "slowRecipient.share", value: "1.5", expected: "a share from 0.01 to 1")
        ) {
            try settings.validate()
        }
        settings.leakWindow = 1e9
        let used = PostOfficeMonitor(settings: settings, clock: ManualClock()).settings
        #expect(used.slowRecipientShare == 1)
        #expect(used.leakWindow == 3600)
    }

    @Test func evidenceReadsInItsUnit() {
        #expect(Evidence(name: .growth, value: 21).description == "growth: 21")
        #expect(Evidence(name: .growthPerSecond, value: 4.2, unit: .perSecond).formattedValue == "4.2/s")
        #expect(Evidence(name: .oldestAge, value: 3.8e9, unit: .nanoseconds).formattedValue == "3.80s")
        #expect(Evidence(name: .shareOverBound, value: 0.64, unit: .share).formattedValue == "64%")
    }
}
