import Foundation
import PonyTestSupport
import Testing

@Suite("ponytop's command line, without a terminal", .blocksItsThread)
struct CommandLineTests {
    func run(_ arguments: String..., environment: [String: String?] = [:]) throws -> ChildProcess.Result {
        try ChildProcess.run([PonyTopBinary.path] + arguments, environment: environment)
    }

    @Test("the binary was built next to the tests")
    func binaryExists() {
        #expect(PonyTopBinary.exists, "no ponytop at \(PonyTopBinary.path); run swift build first")
    }

    @Test("stdout not a terminal: one line suggesting --report, exit 2, no escape codes")
    func notATerminal() throws {
        let result = try run()
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("ponytop: stdout is not a terminal"))
        #expect(result.error.contains("--report"))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(!result.error.contains("\u{1b}"))
    }

    @Test(
        "bad flags and values get a clear error that names the flag, and exit 64 (a usage error)",
        arguments: [
            (["--rate", "0"], "'--rate <rate>': expected a number greater than 0"), (["--rate", "fast"], "--rate"),
            (["--report", "xml"], "'text', 'json', 'sarif' or 'screen'"),
            (
                ["--fail-on", "bugs"],
                "unknown category 'bugs'; expected one or more of 'leak', 'leaks', 'oversubscription'"
            ),
            (["--fail-on", "leak,bugs"], "'slow', 'churn', 'any', comma-separated"),
            (["--refresh", "0"], "--refresh"),
            (["--allow", "bugs"], "--allow: unknown rule 'bugs'; expected one of all, leak, leaks, oversubscription"),
            (["--rule-setting", "stalledQueue.wait"], "--rule-setting: 'stalledQueue.wait' is not NAME=VALUE"),
            (["--rule-setting", "stalledQueue.wait=0"], "expected seconds from 0.001 to 100"),
            (["--duration=-1"], "'--duration <duration>': expected seconds greater than 0"),
            (["--seed=-3"], "'--seed <seed>': expected a whole number"),
            (["--refresh", "99"], "'--refresh <refresh>': expected seconds from 0.05 to 60"), (["--bogus"], "--bogus"),
            (["--rate", "-1"], "'--rate <rate>': expected a number greater than 0"),
            (["--duration", "-5"], "'--duration <duration>': expected seconds greater than 0"),
            (["--seed", "-1"], "'--seed <seed>': expected a whole number from 0 to"),
            (["--refresh", "-0.5"], "'--refresh <refresh>': expected seconds from 0.05 to 60"),
            (["--attach", "-5", "--report", "text"], "--attach: '-5' is not a pid, a socket path or HOST:PORT"),
        ])
    func badValues(arguments: [String], mention: String) throws {
        let result = try ChildProcess.run([PonyTopBinary.path] + arguments)
        #expect(result.status == 64, "\(result.error)")
        #expect(result.output.isEmpty)
        #expect(result.error.split(separator: "\n").first?.contains(mention) == true, "\(result.error)")
    }

    @Test(
        "one vocabulary: categories singular and plural, in --fail-on lists and --allow",
        arguments: [
            ["--fail-on", "leak,slow"], ["--fail-on", "leaks"], ["--fail-on", "oversubscriptions,churn"],
            ["--allow", "leaks"], ["--allow", "leak"], ["--warn", "slow", "--allow", "stalledQueue"],
        ])
    func vocabulary(arguments: [String]) throws {
        let result = try ChildProcess.run([PonyTopBinary.path, "--list-rules"] + arguments)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("growingRegistrations"))
    }

    /// Issue 41: the discussion was wrapped twice (by hand, then by ArgumentParser), leaving `every finding seen` /
    /// `during it`, and it said `2 for bad input` while a bad option exits 64.
    @Test("--help wraps each paragraph once, and names the exit statuses the other tests see the program return")
    func help() throws {
        let result = try ChildProcess.run([PonyTopBinary.path, "--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let usage = try #require(lines.firstIndex { $0.hasPrefix("USAGE:") })
        // The discussion's paragraphs, between the overview and the usage.
        let paragraphs = lines[..<usage].split(separator: "").dropFirst().map(Array.init)
        #expect(paragraphs.count == 3, "\(paragraphs)")
        for paragraph in paragraphs {
            // Wrapped once: every line but a paragraph's last fills most of the 80 columns.
            for line in paragraph.dropLast() { #expect(line.count > 60, "a short line mid-paragraph: '\(line)'") }
            for line in paragraph { #expect(line.count <= 80, "'\(line)'") }
        }
        let text = paragraphs.joined().joined(separator: " ")
        for status in [
            "Exit status: 0;", "1 when --fail-on finds", "2 when the terminal cannot be used",
            "recording cannot be read",
            "the app cannot be attached", "64 for a bad option", "130 for SIGINT", "143 for SIGTERM",
        ] {
            #expect(text.contains(status), "\(text)")
        }
        #expect(!text.contains("2 for bad input"))
    }

    @Test("--version prints the one version the reports and the agent's hello carry")
    func version() throws {
        let result = try ChildProcess.run([PonyTopBinary.path, "--version"])
        #expect(result.status == 0)
        #expect(result.output == "ponytop 0.2.0\n")
    }

    @Test(
        "options that do not apply to an attached app or a recording are refused in one line",
        arguments: [
            (["--attach", "4242", "--scenario", "leaky"], "--scenario does not apply to --attach"),
            (["--attach", "4242", "--rate", "3"], "--rate does not apply to --attach"),
            (["--attach", "4242", "--seed", "3"], "--seed does not apply to --attach"),
            (["--replay", "/nonexistent.rec", "--scenario", "app"], "--scenario does not apply to --replay"),
            (["--replay", "/nonexistent.rec", "--refresh", "1"], "--refresh does not apply to --replay with --report"),
        ])
    func refusedCombinations(arguments: [String], mention: String) throws {
        let result = try ChildProcess.run([PonyTopBinary.path] + arguments + ["--report", "text"])
        #expect(result.status != 0)
        #expect(result.output.isEmpty)
        #expect(result.error.split(separator: "\n").first?.contains(mention) == true, "\(result.error)")
    }

    @Test("a broken config file is said once and the listing commands go on with the defaults; a run still stops")
    func brokenConfigListings() throws {
        let path = NSTemporaryDirectory() + "/ponytop-broken-\(ProcessInfo.processInfo.processIdentifier).json"
        try "{ \"theme\": \"drak\" }".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for listing in ["--list-scenarios", "--list-rules"] {
            let result = try run("--config", path, listing)
            #expect(result.status == 0, "\(listing): \(result.error)")
            #expect(!result.output.isEmpty)
            let lines = result.error.split(separator: "\n")
            #expect(lines.count == 1, "\(result.error)")
            #expect(
                lines.first?.contains("unknown theme") == true && lines.first?.hasSuffix("using the defaults") == true)
        }
        let run = try run("--config", path, "--report", "text", "--duration", "0.1")
        #expect(run.status == 2)
        #expect(run.error.contains("unknown theme"))
    }

    @Test("attaching to a port where nothing listens says so in ponytop's words, in one line")
    func attachRefused() throws {
        let result = try run("--attach", "127.0.0.1:1", "--report", "text")
        #expect(result.status == 2)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.error.contains("--attach: cannot connect to 127.0.0.1:1: connection refused"), "\(result.error)")
        #expect(!result.error.contains("SingleConnectionFailure"))
    }

    @Test("an unknown scenario: one line naming the valid ones, exit 2")
    func unknownScenario() throws {
        let result = try run("--scenario", "nosuch", "--report", "text")
        #expect(result.status == 2)
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(result.error.contains("nosuch"))
        #expect(result.error.contains("app, leaky"))
    }

    @Test("--list-scenarios lists the built-ins with their summaries, --version prints the version reports record")
    func listAndVersion() throws {
        let list = try run("--list-scenarios")
        #expect(list.status == 0)
        let names = list.output.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(names.starts(with: ["app", "leaky"]))
        let version = try run("--version")
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("ponytop "))
        let report = try run("--report", "json", "--duration", "0.2")
        #expect(report.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(report.output.utf8)) as? [String: Any]
        let tool = try #require(json?["tool"] as? String, "\(report.output.prefix(200))")
        #expect(version.output == tool + "\n", "--version and the report's tool disagree")
    }

    @Test("--list-rules lists every rule with its category and settings, as --allow and --rule-setting change them")
    func listRules() throws {
        let list = try run("--list-rules", "--allow", "churn", "--rule-setting", "stalledQueue.wait=500ms")
        #expect(list.status == 0)
        #expect(list.output.contains("growingRegistrations  [leak]  window 60 s\n"))
        #expect(list.output.contains("highPruneRate  [churn]  window 10 s  (off)\n"))
        #expect(list.output.contains("    stalledQueue.wait = 0.5  "))
    }

    @Test("--report json | head -c 10 ends cleanly")
    func brokenPipe() throws {
        let result = try ChildProcess.run([
            "/bin/bash", "-c",
            "'\(PonyTopBinary.path)' --report json --duration 0.5 | head -c 10; exit ${PIPESTATUS[0]}",
        ])
        #expect(result.status == 0)
        #expect(result.output == "{\n  \"durat")
        #expect(result.error.isEmpty)
    }
}
