import Dispatch
import Foundation
import PonyExpress
import PonyTestSupport
import Testing

@testable import PonyScenarios

@Suite struct ScenarioRunnerTests {
    @Test(arguments: Scenario.builtinNames)
    func eachBuiltInRegistersAndPosts(name: String) throws {
        let scenario = try #require(Scenario.builtin(named: name))
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let runner = ScenarioRunner(scenario: scenario, office: office)
        runner.start()
        #expect(office.recipientCount > 0)
        #expect(waitUntil(timeout: 5) { runner.progress.posted >= 20 && !tap.delivered.isEmpty })
        let stopped = finishes(within: 1) { runner.stop() }
        #expect(stopped)
        #expect(runner.progress.isFinished)
    }
}
