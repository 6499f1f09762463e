import Foundation
import PonyTestSupport
import Testing

@Suite("ponytop's command line, without a terminal")
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
            (["--report", "xml"], "'text' and 'json'"),
            (["--fail-on", "bugs"], "'leaks', 'oversubscription', 'slow', 'churn' or 'any'"),
            (["--refresh", "0"], "--refresh"),
            (["--allow", "bugs"], "--allow: unknown rule 'bugs'; expected one of all, leak, oversubscription"),
            (["--rule-setting", "stalledQueue.wait"], "--rule-setting: 'stalledQueue.wait' is not NAME=VALUE"),
            (["--rule-setting", "stalledQueue.wait=0"], "expected seconds from 0.001 to 100"),
            (["--duration=-1"], "'--duration <duration>': expected seconds greater than 0"),
            (["--seed=-3"], "'--seed <seed>': expected a whole number"),
            (["--refresh", "99"], "'--refresh <refresh>': expected seconds from 0.05 to 60"), (["--bogus"], "--bogus"),
        ])
    func badValues(arguments: [String], mention: String) throws {
        let result = try ChildProcess.run([PonyTopBinary.path] + arguments)
        #expect(result.status == 64, "\(result.error)")
        #expect(result.output.isEmpty)
        #expect(result.error.split(separator: "\n").first?.contains(mention) == true, "\(result.error)")
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
