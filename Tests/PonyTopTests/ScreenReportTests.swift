import Foundation
import PonyTestSupport
import Testing

/// `--report screen`: the screen ponytop shows at a run's end, as text. README's screen is one: a recording's last
/// screen, held here to what ponytop draws, so that it cannot drift from the program again.
@Suite(
    "ponytop --report screen", .blocksItsThread,
    .enabled(if: PonyTopBinary.exists, "ponytop was not built"))
struct ScreenReportTests {
    static let recording = "Assets/Recordings/leaky.ponyrec"
    static let command = "swift run ponytop --replay \(recording) --report screen"

    static func ponytop(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run([PonyTopBinary.path] + arguments, timeout: 120)
    }

    @Test("README's screen is the one ponytop draws from the recording README names, at 80x24")
    func readmeScreenIsTheProgramsOwn() throws {
        let readme = try String(
            contentsOf: DocumentedCode.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("`\(Self.command)`"), "README names the command that draws its screen")
        let screens = try DocumentedCode.blocks("text", in: "README.md").filter {
            $0.lines.contains { $0.contains("┌─") }
        }
        let screen = try #require(screens.first, "README shows a screen")
        #expect(screens.count == 1, "one screen, held here: \(screens)")
        let result = try Self.ponytop([
            "--replay", DocumentedCode.root.appendingPathComponent(Self.recording).path, "--report", "screen",
        ])
        #expect(result.status == 0, "\(result.error)")
        let drawn = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(drawn.count == 25 && drawn.last == "", "24 rows and a final newline: \(drawn.count)")
        // The block keeps each row's trailing blanks out, as the screen's text does.
        #expect(
            Array(drawn.dropLast()) == screen.lines,
            "\(screen) differs from `\(Self.command)`; paste its output into README:\n\(result.output)")
    }

    @Test("--allow leaves a recording's findings of those rules out; --rule-setting on one made before 1.7 is refused")
    func aRecordingJudgedWithoutSomeRules() throws {
        let path = DocumentedCode.root.appendingPathComponent(Self.recording).path
        let recorded = try Self.ponytop(["--replay", path, "--report", "text", "--fail-on", "leak"])
        #expect(recorded.status == 1, "the recording holds two leaks: \(recorded.error)")
        let allowed = try Self.ponytop(["--replay", path, "--report", "text", "--fail-on", "leak", "--allow", "leak"])
        #expect(allowed.status == 0, "\(allowed.error)")
        #expect(allowed.output.contains("findings seen during the run: 0"), "\(allowed.output)")
        let thresholds = try Self.ponytop(
            ["--replay", path, "--report", "text", "--rule-setting", "oversubscribed.threshold=5"])
        #expect(thresholds.status == 2)
        #expect(
            thresholds.error
                == "ponytop: --replay: --rule-setting oversubscribed.threshold: '\(path)' holds no rule facts (it was "
                + "recorded before wire protocol 1.7), only the findings judged as it was recorded (--allow and --warn "
                + "do apply); drop --rule-setting\n",
            "\(thresholds.error)")
    }

    @Test(
        "a recording's report covers its window, first snapshot to last; a scenario's starts with its run: ~1,000/s")
    func aRecordingsTotalsCoverItsWindow() throws {
        let result = try Self.ponytop([
            "--replay", DocumentedCode.root.appendingPathComponent(Self.recording).path, "--report", "json",
        ])
        #expect(result.status == 0, "\(result.error)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let seconds = try #require(report["duration_seconds"] as? Double)
        let totals = try #require(report["totals"] as? [String: Any])
        let posts = try #require(totals["posts"] as? Int)
        let lifetime = try #require((totals["app_lifetime"] as? [String: Any])?["posts"] as? Int)
        let types = try #require(report["mail_types"] as? [[String: Any]])
        // leaky posts about 1,000 mail a second, for the 16.2 s it was recorded; the recording's first snapshot
        // was taken before its first post, so the recorded monitor's lifetime is the window.
        #expect(seconds > 16 && seconds < 17, "\(seconds)")
        #expect(Double(posts) / seconds > 900 && Double(posts) / seconds < 1_100, "\(posts) posts in \(seconds) s")
        #expect(lifetime == posts, "the app's lifetime, beside the run's: \(lifetime)")
        #expect(types.compactMap { $0["posts"] as? Int }.reduce(0, +) == posts, "each type covers the same run")
    }

    @Test("--size draws the screen larger, --ascii with ASCII only; a scenario's screen comes at the run's end")
    func sizeAsciiAndAScenario() throws {
        let result = try Self.ponytop([
            "--scenario", "leaky", "--duration", "1", "--report", "screen", "--size", "120x40", "--ascii",
        ])
        #expect(result.status == 0, "\(result.error)")
        let rows = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.count == 40)
        #expect(rows.allSatisfy { $0.unicodeScalars.count <= 120 })
        #expect(rows.contains { $0.unicodeScalars.count == 120 }, "the frame spans the width")
        #expect(result.output.unicodeScalars.allSatisfy { $0.isASCII && ($0.value >= 0x20 || $0 == "\n") })
        #expect(rows.first?.contains("scenario leaky") == true, "\(rows.first ?? "")")
        #expect(result.output.contains("CartUpdated"))
    }

    @Test(
        "a size outside 80x24...500x200, or --size without --report screen, is a bad option: one line, status 64",
        arguments: [
            (["--size", "79x24"], "expected COLUMNSxROWS from 80x24 to 500x200"),
            (["--size", "80x201"], "expected COLUMNSxROWS from 80x24 to 500x200"),
            (["--size", "120"], "expected COLUMNSxROWS from 80x24 to 500x200"),
            (["--size", "x"], "expected COLUMNSxROWS from 80x24 to 500x200"),
            (["--size", "-90x30"], "expected COLUMNSxROWS from 80x24 to 500x200"),
        ] as [([String], String)])
    func badSizes(arguments: [String], message: String) throws {
        let result = try Self.ponytop(["--report", "screen", "--duration", "0.1"] + arguments)
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.split(separator: "\n").first?.contains(message) == true, "\(result.error)")
    }

    @Test("--size without --report screen says which report it belongs to")
    func sizeNeedsTheScreenReport() throws {
        let result = try Self.ponytop(["--report", "text", "--duration", "0.1", "--size", "100x30"])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("Error: --size applies to --report screen only"), "\(result.error)")
    }
}
