import PonyExpressAgent
import PonyExpressMonitor
import PonyExpressWire
import PonyScenarios

extension PonyTop {
    /// The source the options ask for: a recording, an attached app, or a scenario run here. Exits with status 2
    /// and one line when it cannot be had.
    ///
    /// - Parameters:
    ///   - settings: The monitor settings of the config file and the options.
    ///   - overrides: The options' rules as changes over the defaults (``RuleOptions/overrides(judging:)``), which an
    ///     attached viewer, or the replay of a recording that names the app's rules, applies over the app's.
    func makeSource(settings: MonitorSettings, overrides: RuleOverrides) -> any SnapshotSource {
        if let replay = sources.replay {
            do {
                // A report, or a verdict, on a damaged recording would judge partial data: refused.
                return try ReplaySource(
                    path: replay, strict: report != nil || failOn != nil, settings: settings, overrides: overrides,
                    namedParameters: rules.namedParameters)
            } catch {
                Self.fail("--replay: \(error)")
            }
        }
        if let attach = sources.attach {
            do {
                return try AttachedSource(
                    address: try AgentAddress(parsing: attach), overrides: overrides, record: sources.record,
                    overwrite: sources.force)
            } catch let error as AgentClientError {
                Self.fail("--attach: \(error)")
            } catch {
                Self.fail("--record: \(error)")
            }
        }
        let chosen: Scenario
        do {
            chosen = try Scenario.resolve(scenario ?? "app")
        } catch {
            Self.fail(error.lines.map { "--scenario: " + $0 })
        }
        do {
            return try ScenarioSource(
                scenario: chosen, rate: scenarioRate, seed: scenarioSeed, settings: settings, record: sources.record,
                overwrite: sources.force)
        } catch {
            Self.fail("--record: \(error)")
        }
    }

    /// `--list`: prints the attachable apps, or says there are none.
    func listAgents() {
        let lines = AgentList.lines()
        if lines.isEmpty {
            Self.write("no app with the ponytop agent is running (start one with MonitorAgent.start)\n")
        } else {
            Self.write(lines.joined(separator: "\n") + "\n")
        }
    }
}
