#if Prometheus
    import ArgumentParser
    import Dispatch
    import Foundation
    import PonyExpress
    import PonyExpressMetrics
    import PonyExpressMonitor
    import PonyScenarios
    import Prometheus

    /// What publishing a monitor's figures through swift-metrics costs: the `flood` scenario with the monitor attached,
    /// run once without the publisher and once with it (into a swift-prometheus registry), CPU and memory for each.
    struct MetricsCost: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "metrics",
            abstract:
                "Measure the CPU and memory of MetricsPublisher over the flood scenario, against the same run without.")

        @Option(help: "Seconds to run each of the two measurements.")
        var seconds = 60.0

        @Option(help: "Seconds between the publisher's ticks.")
        var interval = 1.0

        @Option(help: "The built-in scenario to drive.")
        var scenario = "flood"

        @Option(help: "Which runs: both, without or with (one per process compares resident memory cleanly).")
        var runs = "both"

        mutating func run() throws {
            guard let scenario = Scenario.builtin(named: scenario) else {
                throw ValidationError(
                    "unknown scenario '\(self.scenario)'; valid: \(Scenario.builtins.map(\.name).joined(separator: ", "))"
                )
            }
            guard seconds > 0, interval > 0 else { throw ValidationError("--seconds and --interval must be above 0") }
            let publishing: [Bool]
            switch runs {
            case "both": publishing = [false, true]
            case "without": publishing = [false]
            case "with": publishing = [true]
            default: throw ValidationError("--runs: expected both, without or with, got '\(runs)'")
            }
            DebugBuild.warn("ponybench metrics")
            print(
                "Scenario \(scenario.name), \(seconds.formatted()) s each, monitor attached, publisher every \(interval.formatted()) s\n"
            )
            print(
                "| run | posts/s | process CPU s | RSS MB | publisher ticks | publisher CPU ms | per tick µs | of one core | series | /metrics KB |"
            )
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for publishing in publishing {
                print(measure(scenario, publishing: publishing))
            }
        }

        /// One run: the row of the table.
        private func measure(_ scenario: Scenario, publishing: Bool) -> String {
            let office = PostOffice()
            let monitor = PostOfficeMonitor()
            monitor.attach(to: office)
            let registry = PrometheusCollectorRegistry()
            let publisher = MetricsPublisher(monitor: monitor, factory: PrometheusMetricsFactory(registry: registry))
            let runner = ScenarioRunner(scenario: scenario, office: office, rate: 1, seed: 1)
            runner.start()
            if publishing { publisher.start(every: .nanoseconds(Int64(interval * 1e9))) }
            let before = runner.progress
            let cpuBefore = Self.processCPUSeconds()
            let start = MonotonicClock.now()
            Thread.sleep(forTimeInterval: seconds)
            let after = runner.progress
            let cpu = Self.processCPUSeconds() - cpuBefore
            let elapsed = Double(MonotonicClock.now() - start) / 1e9
            let resident = Double(ResidentMemory.bytes() ?? 0) / 1_048_576
            publisher.stop()
            runner.stop()
            monitor.detach()
            var text: [UInt8] = []
            registry.emit(into: &text)
            let series = text.split(separator: UInt8(ascii: "\n")).filter { $0.first != UInt8(ascii: "#") }.count
            let cost = publisher.cost
            let spent = Double(cost.cpuNanoseconds) / 1e6
            let perTick = cost.ticks > 0 ? Double(cost.cpuNanoseconds) / Double(cost.ticks) / 1e3 : 0
            let posts = Double(after.posted - before.posted) / elapsed
            let name = publishing ? "publisher every \(interval.formatted()) s" : "no publisher"
            let share = (spent / 1e3 / elapsed * 100).formatted(.number.precision(.fractionLength(3))) + "%"
            return "| \(name) | \(Int(posts)) | \(cpu.formatted(.number.precision(.fractionLength(1)))) | "
                + "\(resident.formatted(.number.precision(.fractionLength(1)))) | \(cost.ticks) | "
                + "\(spent.formatted(.number.precision(.fractionLength(1)))) | \(Int(perTick)) | \(share) | \(series) | "
                + "\((Double(text.count) / 1024).formatted(.number.precision(.fractionLength(1)))) |"
        }

        /// The process's user and system CPU time so far.
        private static func processCPUSeconds() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
    }
#endif
