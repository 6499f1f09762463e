import PonyExpress
import PonyExpressMonitor
import Testing

@Suite struct MonitorSettingsTests {
    @Test func theDefaultsAreValid() throws {
        try MonitorSettings().validate()
        #expect(MonitorSettings().oversubscriptionThreshold == 100)
    }

    @Test func validationNamesTheBadSettingAndWhatIsValid() {
        var settings = MonitorSettings()
        settings.shortWindow = 0
        #expect(throws: MonitorSettingsError.self) { try settings.validate() }
        do {
            try settings.validate()
        } catch {
            #expect(error.description == "invalid monitor setting shortWindow = 0.0: expected seconds ≥ 1")
        }

    }

    @Test func theMonitorClampsValuesOutOfRange() {
        var settings = MonitorSettings()
        settings.shortWindow = -3
        settings.longWindow = .nan
        settings.historyLength = 0
        settings.pruneLogCapacity = -1
        settings.shards = 1_000
        let used = PostOfficeMonitor(settings: settings, clock: ManualClock()).settings
        #expect(used.shortWindow == 1)
        #expect(used.longWindow == 1)
        #expect(used.historyLength == 1)
        #expect(used.pruneLogCapacity == 1)
        #expect(used.shards == 64)
    }
}
