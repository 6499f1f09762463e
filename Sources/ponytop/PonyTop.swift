import ArgumentParser
import Dispatch
import Glibc
import PonyExpressMonitor
import PonyScenarios
import PonyTopModel
import PonyTopReport
import PonyTopUI

/// `ponytop`: a live, htop-like view of a post office under load, or a headless report of a run.
@main
struct PonyTop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ponytop",
        abstract: "A live monitor of a PonyExpress post office: your app's (--attach) or a load scenario's.",
        // One line per paragraph: ArgumentParser wraps each to the terminal's width, and would wrap again, mid-phrase,
        // lines broken here.
        discussion: """
            Without --report, ponytop takes over the terminal; press ? for the keys and q to quit. With --attach, it \
            watches an app that started MonitorAgent; --list shows those running.

            With --report, it runs headless for --duration seconds and prints a report of the run: every finding \
            seen during it, holding, no longer holding or retracted with the reason.

            Exit status: 0; 1 when --fail-on finds a finding it names that was not retracted; 2 when the terminal \
            cannot be used, the scenario, config file or recording cannot be read or the app cannot be attached; \
            64 for a bad option; 128 + the signal's number for a signal (130 for SIGINT, 143 for SIGTERM). SIGINT or \
            SIGTERM during --report prints the report so far, marked partial, and exits with 1 when --fail-on applies.
            """,
        version: ToolVersion.named)

    @Option(help: "A built-in scenario's name or a scenario file (default: app).")
    var scenario: String?

    @Flag(help: "List the built-in scenarios and exit.")
    var listScenarios = false

    @Option(
        help: "Multiply the scenario's posting rates by this factor (greater than 0; default 1).",
        transform: { try Self.number($0, valid: "a number greater than 0") { $0 > 0 } })
    var rate: Double?

    @Option(
        help: "The seed of the scenario's random choices (0 or more; default 1).",
        transform: { argument in
            guard let seed = UInt64(argument) else {
                throw ValidationError("expected a whole number from 0 to \(UInt64.max)")
            }
            return seed
        })
    var seed: UInt64?

    @Option(
        help: """
            Seconds between snapshots (0.05 to 60; default 0.5, or the config file's): screen refreshes, or with \
            --report the snapshots the run watches and --record writes. Not with --replay --report, which reads \
            the whole recording.
            """,
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

    @Option(
        help: """
            Run headless and print a report of the run as text, json, sarif (SARIF 2.1.0), or screen: the screen \
            ponytop would show at the run's end, as plain text.
            """)
    var report: ReportFormat?

    @Option(
        help: ArgumentHelp(
            "With --report screen: the screen's size (default 80x24, the smallest ponytop draws).",
            valueName: "COLUMNSxROWS"),
        transform: { try ScreenSize(parsing: $0) })
    var size: ScreenSize?

    @Option(
        help: ArgumentHelp(
            "With --report sarif: the repository root that file paths are made relative to (default: the current "
                + "directory's git root, else the current directory).",
            valueName: "DIR"))
    var sourceRoot: String?

    @Option(
        help: ArgumentHelp(
            "Exit with status 1 when a finding of these categories was seen during the run and not retracted: "
                + "leak(s), oversubscription(s), slow, churn, comma-separated, or any.",
            valueName: "CATEGORIES"),
        transform: { try FailOn(parsing: $0) })
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

    /// The scenario's rate factor: `--rate`, else 1.
    var scenarioRate: Double { rate ?? 1 }
    /// The scenario's seed: `--seed`, else 1.
    var scenarioSeed: UInt64 { seed ?? 1 }

    /// Parses the command line as given, except that a negative number after an option that takes one is read as
    /// its value (`--rate -1`), so that the option's own message names what is valid.
    static func main() {
        main(joiningNegativeValues(Array(CommandLine.arguments.dropFirst())))
    }

    /// The options whose value may look like a negative number.
    static let numericOptions: Set<String> = ["--rate", "--seed", "--refresh", "--duration", "--attach", "--size"]

    /// `arguments` with each `--option -number` of ``numericOptions`` written as `--option=-number`.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let value = index + 1 < arguments.count ? arguments[index + 1] : ""
            if numericOptions.contains(argument), value.hasPrefix("-"),
                value.dropFirst().first.map({ $0.isNumber || $0 == "." }) == true
            {
                result.append(argument + "=" + value)
                index += 2
            } else {
                result.append(argument)
                index += 1
            }
        }
        return result
    }

    func validate() throws {
        if size != nil, report != .screen {
            throw ValidationError("--size applies to --report screen only: drop --size, or add --report screen")
        }
        if refresh != nil, report != nil, sources.replay != nil {
            throw ValidationError(
                "--refresh does not apply to --replay with --report: the report reads the whole recording at once; "
                    + "drop --refresh")
        }
        let other = sources.attach != nil ? "--attach" : sources.replay != nil ? "--replay" : nil
        guard let other else { return }
        let given = [("--scenario", scenario != nil), ("--rate", rate != nil), ("--seed", seed != nil)]
        if let option = given.first(where: \.1)?.0 {
            let reason =
                other == "--attach" ? "an attached app posts its own mail" : "a recording plays back what it recorded"
            throw ValidationError("\(option) does not apply to \(other): \(reason); drop \(option)")
        }
    }

    func run() throws {
        if settings.writeConfig { return settings.writeDefaults() }
        let listsOnly = rules.listRules || listScenarios || sources.list
        var config = settings.load(refresh: refresh, fallingBackToDefaults: listsOnly)
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
        var root: String?
        if report == .sarif {
            do {
                root = try SourceRoot.resolve(sourceRoot)
            } catch {
                Self.fail("\(error)")
            }
        }
        let source = makeSource(settings: config.monitor, overrides: try rules.overrides(judging: config.monitor))
        if let replay = source as? ReplaySource,
            let note = Self.replayRulesNote(settings: config.monitor, judgedKinds: replay.judgedKinds)
        {
            FileHandleOutput.standardError("ponytop: \(note)\n")
        }
        if let report {
            let seconds = duration ?? 5
            if sources.replay == nil {
                // An attached app's rules see its history since its monitor began, not only the run.
                let watched = sources.attach != nil ? Double(source.snapshot.uptime) / 1e9 : 0
                let notes = failOn?.shortRunNotes(duration: seconds, watched: watched, settings: config.monitor)
                for note in notes ?? [] {
                    FileHandleOutput.standardError("ponytop: \(note)\n")
                }
            }
            var run = HeadlessRun(
                source: source, duration: sources.replay == nil ? seconds : nil, rate: scenarioRate,
                seed: scenarioSeed, refreshInterval: config.refresh)
            if report == .screen { run.screen = (size ?? .standard, ascii ? .ascii : .unicode) }
            let outcome = run.run()
            let result = outcome.report
            if let note = (source as? ReplaySource)?.shownAsRecordedNote {
                FileHandleOutput.standardError("ponytop: note: \(note)\n")
            }
            switch report {
            case .text: Self.write(result.text())
            case .json: Self.write(result.json() + "\n")
            case .sarif: Self.write(result.sarif(sourceRoot: root) + "\n")
            case .screen: Self.write(outcome.screen ?? "")
            }
            try failOn.map { try Self.fail(on: $0, in: result) }
            if result.partial {
                FileHandleOutput.standardError(
                    "ponytop: \(result.interruptedBy.value ?? "a signal") cut the run short; the report is partial\n")
                throw ExitCode(128 + SignalTrap.termination.load(ordering: .relaxed))
            }
            return
        }
        try runLive(source, config: config)
    }

    /// What a replay says when the config file sets rule thresholds it cannot apply: those of the leak rule when the
    /// recording holds none of its facts (made before wire protocol 1.8), or every one when it holds no rule facts
    /// (before 1.7). `nil` when it applies them all.
    static func replayRulesNote(settings: MonitorSettings, judgedKinds: Set<Finding.Kind>) -> String? {
        let set = FindingRules.all.filter { !judgedKinds.contains($0.kind) }
            .flatMap(\.parameters).filter { settings[$0] != $0.defaultValue }.map(\.name)
        guard !set.isEmpty else { return nil }
        let why =
            !judgedKinds.isEmpty
            ? "the recording holds no facts of that rule (it was recorded before wire protocol 1.8), only its findings"
            : "the recording holds no rule facts (it was recorded before wire protocol 1.7), only the findings judged "
                + "as it was recorded"
        return "the config file's thresholds \(set.joined(separator: ", ")) do not apply to --replay: \(why) "
            + "(its rules entries do apply)"
    }

    /// Exits with status 1, one line on stderr per finding that caused it, if `report` has findings `failOn` fails on.
    static func fail(on failOn: FailOn, in report: Report) throws {
        let failures = failOn.failures(in: report)
        guard !failures.isEmpty else { return }
        for line in failures { FileHandleOutput.standardError("ponytop: \(line.terminalSafe)\n") }
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
                snapshot: final, log: session.findingLog, source: Report.Source(source.origin),
                durationSeconds: Double(final.uptime) / 1e9, rate: scenarioRate, seed: scenarioSeed)
            try Self.fail(on: failOn, in: report)
        }
    }

    /// Prints a one-line error and exits with status 2.
    static func fail(_ message: String) -> Never {
        fail([message])
    }

    /// Prints one line per problem and exits with status 2.
    static func fail(_ messages: [String]) -> Never {
        // An error may quote an agent or a file (a refusal's reason, a name): escaped, it stays one line.
        FileHandleOutput.standardError(messages.map { "ponytop: \($0.terminalSafe)\n" }.joined())
        Glibc.exit(2)
    }

    /// Writes to stdout; a reader that went away (`| head`) ends the output quietly.
    static func write(_ text: String) {
        FileHandleOutput.standardOutput(text)
    }
}
