import ArgumentParser
import Dispatch
import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyScenarios

/// How fast the embedded scenario runner drives a real post office, with and without the monitor attached.
struct RunnerThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: """
            Measure the highest sustained post and delivery rates of a scenario, with and without the monitor, and how \
            long stop() takes at that speed (target: 1 s).
            """)

    @Option(help: "The built-in scenario to drive; `flood` posts as fast as two threads can.")
    var scenario = "flood"

    @Option(help: "A factor for every rate in the scenario (`max` rates ignore it).")
    var rate = 1.0

    @Option(help: "Seconds to run each measurement.")
    var seconds = 5.0

    mutating func run() throws {
        guard let scenario = Scenario.builtin(named: scenario) else {
            throw ValidationError(
                "unknown scenario '\(self.scenario)'; valid: \(Scenario.builtins.map(\.name).joined(separator: ", "))")
        }
        print("| scenario \(scenario.name), rate x\(rate.formatted()) | posts/s | deliveries/s | stop() | target |")
        print("|---|---:|---:|---:|---|")
        for withMonitor in [false, true] {
            let (posts, deliveries, stop) = measure(scenario, withMonitor: withMonitor)
            print(
                "| \(withMonitor ? "monitor attached" : "no monitor") | \(Int(posts)) | \(Int(deliveries)) "
                    + "| \(Int(stop * 1_000)) ms | stop() within 1 s: \(stop <= 1 ? "met" : "**not met**") |")
        }
    }

    /// Runs the scenario for `seconds` and returns its posts and deliveries per second, as the runner counts them
    /// (no tap is attached but the monitor, so the two rows differ by the monitor alone), and the seconds `stop()`
    /// took at that speed, the bound the unit tests leave to this benchmark.
    private func measure(_ scenario: Scenario, withMonitor: Bool) -> (Double, Double, Double) {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        if withMonitor { monitor.attach(to: office) }
        let runner = ScenarioRunner(scenario: scenario, office: office, rate: rate, seed: 1)
        runner.start()
        // Warm up, then count over the measured interval only.
        Thread.sleep(forTimeInterval: 1)
        let before = runner.progress
        let start = MonotonicClock.now()
        Thread.sleep(forTimeInterval: seconds)
        let after = runner.progress
        let elapsed = Double(MonotonicClock.now() - start) / 1e9
        let posts = Double(after.posted - before.posted) / elapsed
        let deliveries = Double(after.delivered - before.delivered) / elapsed
        let stopping = MonotonicClock.now()
        runner.stop()
        let stop = Double(MonotonicClock.now() - stopping) / 1e9
        monitor.detach()
        return (posts, deliveries, stop)
    }
}
