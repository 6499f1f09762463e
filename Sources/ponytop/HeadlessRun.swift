import Dispatch
import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyScenarios
import PonyTopUI

/// `--report`: runs a scenario without a terminal for a while and summarises what the monitor saw.
struct HeadlessRun {
    let scenario: Scenario
    let rate: Double
    let seed: UInt64
    let duration: Double
    let config: PonyTopConfig

    /// Runs the scenario for ``duration`` seconds.
    ///
    /// - Returns: The report of the monitor's final snapshot.
    func run() -> Report {
        let office = PostOffice()
        let monitor = PostOfficeMonitor(settings: config.monitor)
        monitor.attach(to: office)
        let runner = ScenarioRunner(scenario: scenario, office: office, rate: rate, seed: seed)
        let start = MonotonicClock.now()
        runner.start()
        let end = start + UInt64(duration * 1e9)
        while MonotonicClock.now() < end {
            let left = end - min(end, MonotonicClock.now())
            usleep(UInt32(min(left / 1000, 100_000)))
        }
        let snapshot = monitor.snapshot()
        let elapsed = Double(MonotonicClock.now() - start) / 1e9
        runner.stop()
        monitor.detach()
        return Report(
            snapshot: snapshot, scenario: scenario.name,
            durationSeconds: elapsed, rate: rate, seed: seed)
    }
}
