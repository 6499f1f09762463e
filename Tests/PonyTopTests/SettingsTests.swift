import Foundation
import PonyTestSupport
import Testing

/// `--theme`, `--config` and `--write-config`, run as a user runs them.
@Suite("ponytop's themes and config file", .blocksItsThread, .serialized)
struct SettingsTests {
    /// A fresh directory standing in for `$XDG_CONFIG_HOME`.
    let home: String

    init() throws {
        home = ChildProcess.temporaryFile("config")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run([PonyTopBinary.path] + arguments, environment: ["XDG_CONFIG_HOME": home], timeout: 30)
    }

    @Test("--write-config writes the defaults where ponytop reads them, and refuses to overwrite")
    func writeConfig() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let path = home + "/ponytop/config.json"
        let first = try run(["--write-config"])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output == "wrote \(path)\n")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"theme\": \"dark\""))
        #expect(text.contains("\"growingRegistrations.window\": 60,"))
        let again = try run(["--write-config"])
        #expect(again.status == 2)
        #expect(again.error.hasPrefix("ponytop: --write-config: \(path) exists"), "\(again.error)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "nothing lost")
        let report = try run(["--report", "text", "--duration", "0.2"])
        #expect(report.status == 0, "the written file is valid: \(report.error)")
    }

    @Test("a bad config file: one line per problem with file:line:column, exit 2, nothing run")
    func badConfig() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/ponytop", withIntermediateDirectories: true)
        let path = home + "/ponytop/config.json"
        try Data("{\n  \"theme\": \"drak\",\n  \"refresh\": \"fast\"\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try run(["--report", "json", "--duration", "0.2"])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(
            result.error == "ponytop: config: \(path):2:12: unknown theme; expected a theme name, found \"drak\" "
                + "(valid: dark, light)\nponytop: config: \(path):3:14: bad \"refresh\"; expected seconds from 0.05 "
                + "to 60, found \"fast\"\n", "\(result.error)")
        let missing = try run(["--config", home + "/nope.json", "--report", "text"])
        #expect(missing.status == 2)
        #expect(missing.error.hasPrefix("ponytop: config: \(home)/nope.json: no such file"), "\(missing.error)")
        let theme = try run(["--theme", "blue"])
        #expect(theme.status == 64, "a usage error, as every bad flag value")
        #expect(theme.error.contains("expected one of dark, light"), "\(theme.error)")
    }

    @Test("the config file's thresholds and rules reach the monitor")
    func thresholdsAndRules() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/ponytop", withIntermediateDirectories: true)
        let path = home + "/ponytop/config.json"
        func oversubscribed(_ config: String) throws -> Int {
            try Data(config.utf8).write(to: URL(fileURLWithPath: path))
            let result = try run(["--scenario", "app", "--report", "json", "--duration", "1.5"])
            #expect(result.status == 0, "\(result.error)")
            let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            let findings = json?["findings"] as? [[String: Any]] ?? []
            return findings.filter { $0["kind"] as? String == "oversubscribed" }.count
        }
        #expect(try oversubscribed("{ }") == 0, "app stays under the default threshold")
        #expect(try oversubscribed(#"{ "thresholds": { "oversubscribed.threshold": 1 } }"#) > 0)
        #expect(
            try oversubscribed(
                #"{ "thresholds": { "oversubscribed.threshold": 1 }, "rules": { "oversubscribed": false } }"#) == 0,
            "a rule turned off reports nothing")
    }

    @Test(
        "the light theme draws dark blue where the dark one draws cyan, at 256 and at 8 colours",
        .enabled(if: TmuxSession.isAvailable, "tmux is not installed"),
        arguments: [
            ("xterm-256color", ["--theme", "light"], "\u{1b}[38;5;25m", "\u{1b}[36m"),
            ("xterm", ["--theme", "light"], "\u{1b}[34m", "\u{1b}[36m"),
            ("xterm-256color", [], "\u{1b}[36m", "38;5;25m"),
        ] as [(String, [String], String, String)])
    func themes(term: String, flags: [String], present: String, absent: String) throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        // tmux sets TERM itself (tmux-256color); `env` sets the one ponytop sees.
        let tmux = try TmuxSession(
            [PonyTopBinary.path] + flags, environment: ["XDG_CONFIG_HOME": home], prefix: "env TERM=\(term)")
        #expect(tmux.waitFor("Mail types ("))
        let screen = tmux.captureWithEscapes()
        #expect(screen.contains(present), "\(term) \(flags)")
        #expect(!screen.contains(absent), "\(term) \(flags)")
        tmux.sendKeys("q")
        tmux.expectExit(0)
    }

    @Test(
        "the config file's theme is used, and --theme wins over it",
        .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func configTheme() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/ponytop", withIntermediateDirectories: true)
        try Data("{ \"theme\": \"light\", \"refresh\": 2 }".utf8).write(
            to: URL(fileURLWithPath: home + "/ponytop/config.json"))
        let fromFile = try TmuxSession([PonyTopBinary.path], environment: ["XDG_CONFIG_HOME": home])
        #expect(fromFile.waitFor("refresh 2s"))
        #expect(fromFile.captureWithEscapes().contains("\u{1b}[38;5;25m"))
        fromFile.sendKeys("q")
        fromFile.expectExit(0)
        let overridden = try TmuxSession(
            [PonyTopBinary.path, "--theme", "dark", "--refresh", "1"], environment: ["XDG_CONFIG_HOME": home])
        #expect(overridden.waitFor("refresh 1s"))
        #expect(!overridden.captureWithEscapes().contains("38;5;25m"))
        overridden.sendKeys("q")
        overridden.expectExit(0)
    }
}
