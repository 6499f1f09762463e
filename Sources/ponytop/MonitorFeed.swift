import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyScenarios
import PonyTopUI

/// A post office under load: the scenario runner posts on its own threads, the monitor counts, and the session
/// takes immutable snapshots from them.
final class MonitorFeed {
    let scenario: Scenario
    let office = PostOffice()
    let monitor: PostOfficeMonitor
    let runner: ScenarioRunner
    /// The latest snapshot taken.
    private(set) var snapshot: MonitorSnapshot
    private(set) var status: ScenarioStatus

    init(scenario: Scenario, rate: Double, seed: UInt64, settings: MonitorSettings) {
        self.scenario = scenario
        monitor = PostOfficeMonitor(settings: settings)
        runner = ScenarioRunner(scenario: scenario, office: office, rate: rate, seed: seed)
        monitor.attach(to: office)
        snapshot = monitor.snapshot()
        status = ScenarioStatus(name: scenario.name, progress: runner.progress)
    }

    /// Starts posting.
    func start() {
        runner.start()
    }

    /// Takes a new snapshot of the monitor and the runner.
    func refresh() {
        snapshot = monitor.snapshot()
        status = ScenarioStatus(name: scenario.name, progress: runner.progress)
    }

    /// The dashboard of the latest snapshot as `state` shows it.
    func dashboard(for state: AppState) -> Dashboard {
        Dashboard(snapshot: snapshot, scenario: status, state: state)
    }

    /// Pauses the scenario if it runs, resumes it if it is paused.
    func toggleScenarioPause() {
        if runner.isPaused { runner.resume() } else { runner.pause() }
        status = ScenarioStatus(name: scenario.name, progress: runner.progress)
    }

    /// Clears the monitor's statistics.
    func resetStatistics() {
        monitor.reset()
        refresh()
    }

    /// Stops posting (within a second) and detaches the monitor.
    func stop() {
        runner.stop()
        monitor.detach()
    }
}
