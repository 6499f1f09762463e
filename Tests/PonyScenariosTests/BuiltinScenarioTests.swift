import Foundation
import PonyExpress
import PonyTestSupport
import Testing

@testable import PonyScenarios

@Suite(.tags(.concurrency)) struct BuiltinScenarioTests {
    @Test func theBuiltInsAreTheAgreedOnesWithAppFirst() {
        #expect(
            Scenario.builtinNames == [
                "app", "leaky", "oversubscribed", "burst", "churn", "hierarchy", "flood", "scoped",
            ])
        for scenario in Scenario.builtins {
            #expect(!scenario.summary.isEmpty)
            #expect(!scenario.summary.contains("\n"))
            #expect(!scenario.phases.isEmpty)
        }
    }

    @Test func builtinLooksUpByName() {
        #expect(Scenario.builtin(named: "leaky")?.name == "leaky")
        #expect(Scenario.builtin(named: "nope") == nil)
    }
}

/// `Assets/Scenarios/` holds one file per built-in, a copy of the text embedded in the code. Run the tests with
/// `PONY_RECORD_SCENARIOS=1` to rewrite the copies from the code.
@Suite struct BuiltinScenarioAssetTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/Scenarios")

    @Test(arguments: BuiltinScenario.sources.map(\.name))
    func assetFileParsesAndEqualsTheBuiltIn(name: String) throws {
        let source = try #require(BuiltinScenario.sources.first { $0.name == name })
        let url = Self.directory.appendingPathComponent("\(name).json")
        if ProcessInfo.processInfo.environment["PONY_RECORD_SCENARIOS"] == "1" {
            try Data((source.text + "\n").utf8).write(to: url)
        }
        let bytes = try [UInt8](Data(contentsOf: url))
        #expect(try Scenario.parse(bytes, fileName: url.path) == Scenario.builtin(named: name))
        #expect(String(decoding: bytes, as: UTF8.self) == source.text + "\n", "\(name).json differs from the code")
        #expect(try Scenario.load(contentsOf: url.path) == Scenario.builtin(named: name))
    }

    @Test func everyAssetFileIsABuiltIn() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).sorted()
        #expect(files == Scenario.builtinNames.map { "\($0).json" }.sorted())
    }
}
