import ArgumentParser
import Foundation
import PonyExpressMonitor
import PonyScenarios

/// Runs the planted scenarios of `Tests/Scenarios/planted.json` against a monitor at its default settings and prints,
/// for each, the time to the first correct finding and every wrong one. Exits non-zero when a target is missed.
struct FindingsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "findings",
        abstract: "Time the monitor's findings on planted scenarios: when the right ones come, and every wrong one.",
        discussion: """
            Each scenario runs in turn with a PostOfficeMonitor at its default settings, from the moment it starts, \
            with a snapshot every --poll seconds (as ponytop refreshes). A finding that the manifest does not expect \
            for the scenario is wrong; a healthy scenario expects none. The whole list takes about 8 minutes.
            """)

    @Option(help: "The folder with planted.json and the scenario files.")
    var scenarios = "Tests/Scenarios"

    @Option(help: "Run only these scenarios (a name as in planted.json); repeatable.")
    var only: [String] = []

    @Option(
        help: "Run each healthy scenario this many seconds instead of the manifest's (600 for the 10-minute check).")
    var healthySeconds: Double?

    @Option(help: "Seconds between snapshots.")
    var poll = 0.25

    func validate() throws {
        guard poll.isFinite, (0.01...10).contains(poll) else {
            throw ValidationError("--poll must be seconds from 0.01 to 10; found \(poll)")
        }
        if let healthySeconds, !(healthySeconds.isFinite && (1...86_400).contains(healthySeconds)) {
            throw ValidationError("--healthy-seconds must be seconds from 1 to 86400; found \(healthySeconds)")
        }
    }

    mutating func run() throws {
        DebugBuild.warn("ponybench findings")
        let manifestPath = scenarios + "/planted.json"
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            throw ValidationError("--scenarios: no \(manifestPath); expected the folder of planted.json")
        }
        let manifest: PlantedScenarios
        do {
            manifest = try JSONDecoder().decode(PlantedScenarios.self, from: data)
        } catch {
            throw ValidationError("\(manifestPath): not a list of planted scenarios (\(error))")
        }
        let names = Set(manifest.scenarios.map(\.scenario))
        for name in only where !names.contains(name) {
            throw ValidationError(
                "--only: unknown scenario '\(name)'; expected one of \(manifest.scenarios.map(\.scenario).joined(separator: ", "))"
            )
        }
        var runs: [PlantedRun] = []
        for planted in manifest.scenarios where only.isEmpty || only.contains(planted.scenario) {
            let path = planted.scenario.hasSuffix(".json") ? scenarios + "/" + planted.scenario : planted.scenario
            let scenario: Scenario
            do {
                scenario = try Scenario.resolve(path)
            } catch {
                throw ValidationError(error.description)
            }
            let seconds = planted.isHealthy ? (healthySeconds ?? planted.seconds) : planted.seconds
            FileHandle.standardError.write(Data("running \(planted.scenario) for \(Int(seconds)) s...\n".utf8))
            runs.append(
                PlantedRun.run(planted, scenario: scenario, seconds: seconds, poll: poll, settings: MonitorSettings()))
        }
        print(Self.table(runs))
        if runs.contains(where: { !$0.metTarget }) { throw ExitCode(1) }
    }

    /// The runs as a Markdown table.
    static func table(_ runs: [PlantedRun]) -> String {
        func seconds(_ value: Double?) -> String {
            value.map { String(format: "%.1f s", $0) } ?? "never"
        }
        var lines = [
            "| scenario | expected | first correct | all expected | target | wrong findings | met |",
            "|---|---|---:|---:|---:|---|:---:|",
        ]
        for run in runs {
            let planted = run.planted
            let expected =
                planted.isHealthy
                ? "nothing (healthy, \(Int(run.seconds.rounded())) s)"
                : planted.expect.map(\.description).joined(separator: "; ")
            let wrong =
                run.wrong.isEmpty
                ? "none"
                : run.wrong.map { wrong in
                    let finding = wrong.finding
                    return "\(finding.kind) \(finding.mailType.name)"
                        + (finding.subject.map { " (\($0))" } ?? "") + " at \(seconds(wrong.after))"
                }.joined(separator: "; ")
            lines.append(
                "| \(planted.scenario) | \(expected) | \(planted.isHealthy ? "-" : seconds(run.firstCorrect)) | "
                    + "\(planted.isHealthy ? "-" : seconds(run.allExpected)) | "
                    + "\(planted.within.map { "≤ \(Int($0)) s" } ?? "-") | \(wrong) | \(run.metTarget ? "yes" : "NO") |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
