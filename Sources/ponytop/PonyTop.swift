import ArgumentParser
import Dispatch
import Glibc
import PonyExpressMonitor
import PonyScenarios
import PonyTopUI

/// `ponytop`: a live, htop-like view of a post office under load, or a headless report of a run.
@main
struct PonyTop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ponytop",
        abstract: "A live monitor of a PonyExpress post office: your app's (--attach) or a load scenario's.",
        discussion: """
            Without --report, ponytop takes over the terminal; press ? for the keys and q to quit.
            With --attach, it watches an app that started MonitorAgent; --list shows those running.
            With --report, it runs headless for --duration seconds and prints a summary.
            """,
        version: ToolVersion.named)

    @Option(help: "A built-in scenario's name or a scenario file.")
    var scenario = "app"

    @Flag(help: "List the built-in scenarios and exit.")
    var listScenarios = false

    @Option(
        help: "Multiply the scenario's posting rates by this factor (greater than 0).",
        transform: { try Self.number($0, valid: "a number greater than 0") { $0 > 0 } })
    var rate: Double = 1

    @Option(
        help: "The seed of the scenario's random choices.",
        transform: { argument in
            guard let seed = UInt64(argument) else {
                throw ValidationError("expected a whole number from 0 to \(UInt64.max)")
            }
            return seed
        })
    var seed: UInt64 = 1

    @Option(
        help: "Seconds between screen refreshes (0.05 to 60; default 0.5, or the config file's).",
        transform: { try Self.number($0, valid: "seconds from 0.05 to 60") { $0 >= 0.05 && $0 <= 60 } })
    var refresh: Double?

    @OptionGroup(title: "Settings")
    var settings: SettingsOptions

    @Option(
        help: "Run for this many seconds, then stop (default for --report: 5; live: until q).",
        transform: { try Self.number($0, valid: "seconds greater than 0") { $0 > 0 } })
    var duration: Double?

    @Flag(help: "Draw without colours (NO_COLOR is honoured too).")
    var noColor = false

    @Flag(help: "Draw with ASCII characters only.")
    var ascii = false

    @Option(help: "Run headless and print a summary as text or json.")
    var report: ReportFormat?

    @Option(help: "Exit with status 1 when such a finding exists: leaks, oversubscription, slow, churn or any.")
    var failOn: FailOn?

    @OptionGroup(title: "Finding rules")
    var rules: RuleOptions

    /// Parses a number option, or explains in one line what is valid.
    static func number(_ argument: String, valid: String, _ isValid: (Double) -> Bool) throws -> Double {
        guard let value = Double(argument), value.isFinite, isValid(value) else {
            throw ValidationError("expected \(valid)")
        }
        return value
    }

    @OptionGroup(title: "Attach, record and replay")
    var sources: AttachOptions

    @Option(help: .hidden)
    var crashAfterForTesting: Double?

    func run() throws {
        if settings.writeConfig { return settings.writeDefaults() }
        var config = settings.load(refresh: refresh)
        try rules.apply(to: &config.monitor)
        if rules.listRules {
            Self.write(RuleOptions.list(with: config.monitor))
            return
        }
        if listScenarios {
            let width = Scenario.builtins.map(\.name.count).max() ?? 0
            for builtin in Scenario.builtins {
                print(builtin.name + String(repeating: " ", count: width - builtin.name.count + 2) + builtin.summary)
            }
            return
        }
        if sources.list {
            listAgents()
            return
        }
        let source = makeSource(settings: config.monitor)
        if let report {
            let seconds = duration ?? 5
            if sources.replay == nil {
                for note in failOn?.shortRunNotes(duration: seconds, settings: config.monitor) ?? [] {
                    FileHandleOutput.standardError("ponytop: \(note)\n")
                }
            }
            let result = HeadlessRun(
                source: source, duration: sources.replay == nil ? seconds : nil, rate: rate, seed: seed
            ).run()
            Self.write(report == .json ? result.json() + "\n" : result.text())
            try failOn.map { try Self.fail(on: $0, in: result) }
            return
        }
        try runLive(source, config: config)
    }

    /// Exits with status 1, one line on stderr per finding that caused it, if `report` has findings `failOn` fails on.
    static func fail(on failOn: FailOn, in report: Report) throws {
        let failures = failOn.failures(in: report)
        guard !failures.isEmpty else { return }
        for line in failures { FileHandleOutput.standardError("ponytop: \(line)\n") }
        throw ExitCode(1)
    }

    private func runLive(_ source: any SnapshotSource, config: PonyTopConfig) throws {
        let noColorVariable = getenv("NO_COLOR").map { String(cString: $0) } ?? ""
        SignalTrap.install()
        var modes = termios()
        tcgetattr(STDIN_FILENO, &modes)
        let terminal: Terminal
        do {
            terminal = try Terminal(color: !noColor && noColorVariable.isEmpty, ascii: ascii, theme: config.theme)
        } catch {
            Self.fail(error.description)
        }
        CrashGuard.install(reset: terminal.resetSequence, modes: modes)
        let session = LiveSession(
            source: source, terminal: terminal, refreshInterval: config.refresh, duration: duration,
            crashAfter: crashAfterForTesting)
        let signal = session.run()
        terminal.close()
        CrashGuard.uninstall()
        if let signal {
            _exit(128 + signal)
        }
        let final = source.finalSnapshot()
        source.stop()
        if let failOn {
            let report = Report(
                snapshot: final, source: source.reportSource, durationSeconds: Double(final.uptime) / 1e9,
                rate: rate, seed: seed)
            try Self.fail(on: failOn, in: report)
        }
    }

    /// Prints a one-line error and exits with status 2.
    static func fail(_ message: String) -> Never {
        fail([message])
    }

    /// Prints one line per problem and exits with status 2.
    static func fail(_ messages: [String]) -> Never {
        FileHandleOutput.standardError(messages.map { "ponytop: \($0)\n" }.joined())
        Glibc.exit(2)
    }

    /// Writes to stdout; a reader that went away (`| head`) ends the output quietly.
    static func write(_ text: String) {
        FileHandleOutput.standardOutput(text)
    }
}
