import Foundation
import PonyExpress
import PonyScenarios
import Testing

/// The Scenario format article shows a real file, real errors and real code (the README links it): these tests keep
/// them so.
@Suite struct ScenarioFormatArticleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The DocC article on the file format, whole.
    static func formatArticle() throws -> String {
        try String(
            contentsOf: root.appendingPathComponent("Sources/PonyScenarios/PonyScenarios.docc/ScenarioFormat.md"),
            encoding: .utf8)
    }

    /// The code blocks of `text` written in `language` (`""` for blocks without one).
    static func blocks(_ language: String, in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        var currentLanguage = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if var lines = current {
                if line == "```" {
                    if currentLanguage == language { blocks.append(lines.joined(separator: "\n")) }
                    current = nil
                } else {
                    lines.append(line)
                    current = lines
                }
            } else if line.hasPrefix("```") {
                currentLanguage = String(line.dropFirst(3))
                current = []
            }
        }
        return blocks
    }

    @Test func theExampleFileIsTheAppBuiltIn() throws {
        let example = try #require(Self.blocks("json", in: try Self.formatArticle()).first)
        #expect(try Scenario.parse(example, fileName: "ScenarioFormat.md") == Scenario.builtin(named: "app"))
    }

    @Test func theExampleErrorsAreTheParsersOwn() throws {
        let errors = try #require(Self.blocks("", in: try Self.formatArticle()).first).components(separatedBy: "\n")
        let app = try String(
            contentsOf: Self.root.appendingPathComponent("Assets/Scenarios/app.json"), encoding: .utf8)
        var produced: [String] = []
        let broken = app.replacingOccurrences(of: "\"kind\": \"CartViewModel\"", with: "\"kind\": \"CartView\"")
            .replacingOccurrences(of: "\"duration\": 3,", with: "\"duration\": -5,")
        do {
            _ = try Scenario.parse(broken, fileName: "my-app.json")
            Issue.record("no error")
        } catch {
            produced += error.lines
        }
        do {
            _ = try Scenario.resolve("missing.json")
        } catch {
            produced.append(error.description)
        }
        #expect(errors == produced)
    }

    @Test func theExampleCodeRuns() throws {
        // Example begin
        let office = PostOffice()
        let runner = ScenarioRunner(scenario: try Scenario.resolve("churn"), office: office, rate: 2, seed: 42)
        runner.start()
        // ... watch `office`, for instance with a PostOfficeMonitor ...
        print(runner.progress.phaseName, runner.progress.posted)
        runner.stop()
        // Example end
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let begin = try #require(source.range(of: "// Example begin\n"))
        let end = try #require(source.range(of: "        // Example end"))
        let code = source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.dropFirst(8) }.joined(separator: "\n")
        let example = try #require(Self.blocks("swift", in: try Self.formatArticle()).first)
        #expect(example == "import PonyExpress\nimport PonyScenarios\n\n" + code.dropLast())
    }
}
