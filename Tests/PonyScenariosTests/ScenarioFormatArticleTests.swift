import Foundation
import PonyExpress
import PonyScenarios
import PonyTestSupport
import Testing

/// The Scenario format article shows a real file, real errors and real code (the README links it): these tests keep
/// them so.
@Suite struct ScenarioFormatArticleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The article's code blocks written in `language` (`""` for blocks without one).
    static func blocks(_ language: String) throws -> [String] {
        try DocumentedCode.blocks(language, in: "Sources/PonyScenarios/PonyScenarios.docc/ScenarioFormat.md")
            .map { $0.lines.joined(separator: "\n") }
    }

    @Test func theExampleFileIsTheAppBuiltIn() throws {
        let example = try #require(try Self.blocks("json").first)
        #expect(try Scenario.parse(example, fileName: "ScenarioFormat.md") == Scenario.builtin(named: "app"))
    }

    @Test func theExampleErrorsAreTheParsersOwn() throws {
        let errors = try #require(try Self.blocks("").first).components(separatedBy: "\n")
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

    /// The article's code, held verbatim (DocumentedCodeTests compares it with the article).
    @Test func theExampleCodeRuns() throws {
        // Example begin
        let office = PostOffice()
        let runner = ScenarioRunner(scenario: try Scenario.resolve("churn"), office: office, rate: 2, seed: 42)
        runner.start()
        // ... watch `office`, for instance with a PostOfficeMonitor ...
        print(runner.progress.phaseName, runner.progress.posted)
        runner.stop()
        // Example end
        #expect(runner.progress.isFinished)
        #expect(office.recipientCount == 0)
    }

    /// The module article's example, held verbatim.
    @Test func theModuleArticleExampleRuns() throws {
        // Example begin
        let office = PostOffice()
        let runner = ScenarioRunner(scenario: try Scenario.resolve("leaky"), office: office, rate: 2, seed: 42)
        runner.start()
        // ...
        runner.stop()
        // Example end
        #expect(runner.progress.isFinished)
        #expect(office.recipientCount == 0)
    }
}
