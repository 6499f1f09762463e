import Foundation
import PonyExpress
import PonyTestSupport
import Testing

@testable import PonyScenarios

@Suite struct BuiltinScenarioTests {
    @Test func theBuiltInsAreTheAgreedOnesWithAppFirst() {
        #expect(
            Scenario.builtinNames == ["app", "leaky", "oversubscribed", "burst", "churn", "hierarchy", "flood"])
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
