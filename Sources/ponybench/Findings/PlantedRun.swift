import Dispatch
import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyScenarios

/// What a run of a planted scenario showed: when each expected finding first appeared, and every wrong one.
struct PlantedRun {
    /// A finding the scenario should not produce, and when it first appeared.
    struct Wrong {
        let finding: Finding
        let after: Double
    }

    let planted: PlantedScenario
    /// Seconds from the start of the run to the first sight of each expected finding, `nil` if never seen.
    let firstSeen: [Double?]
    let wrong: [Wrong]
    /// How long it ran.
    let seconds: Double

    /// The time to the first correct finding.
    var firstCorrect: Double? { firstSeen.compactMap { $0 }.min() }
    /// The time by which every expected finding was seen, `nil` if one never was.
    var allExpected: Double? {
        firstSeen.contains { $0 == nil } ? nil : firstSeen.compactMap { $0 }.max()
    }
    /// Whether every expected finding came within the target and nothing wrong came at all.
    var metTarget: Bool {
        wrong.isEmpty && (planted.isHealthy || (allExpected.map { $0 <= (planted.within ?? seconds) } ?? false))
    }

    /// Runs `scenario` with a monitor at its default settings for `seconds`, taking a snapshot every `poll` seconds.
    static func run(
        _ planted: PlantedScenario, scenario: Scenario, seconds: Double, poll: Double, settings: MonitorSettings
    ) -> PlantedRun {
        let office = PostOffice()
        let monitor = PostOfficeMonitor(settings: settings)
        monitor.attach(to: office)
        let runner = ScenarioRunner(scenario: scenario, office: office, seed: 1)
        let start = MonotonicClock.now()
        runner.start()
        var firstSeen = [Double?](repeating: nil, count: planted.expect.count)
        var wrong: [String: Wrong] = [:]
        var elapsed = 0.0
        while elapsed < seconds {
            Thread.sleep(forTimeInterval: Swift.min(poll, seconds - elapsed))
            let snapshot = monitor.snapshot()
            elapsed = Double(MonotonicClock.now() - start) / 1e9
            for finding in snapshot.findings {
                for (index, match) in planted.expect.enumerated() where firstSeen[index] == nil {
                    if match.matches(finding) { firstSeen[index] = elapsed }
                }
                if !planted.isCorrect(finding), wrong[finding.id] == nil {
                    wrong[finding.id] = Wrong(finding: finding, after: elapsed)
                }
            }
        }
        runner.stop()
        monitor.detach()
        return PlantedRun(
            planted: planted, firstSeen: firstSeen, wrong: wrong.values.sorted { $0.after < $1.after },
            seconds: elapsed)
    }
}
