import PonyExpressMonitor
import PonyTopUI
import Testing

@Suite("The legend says what every kind of finding means")
struct LegendTests {
    @Test("every kind the monitor reports has a line in the legend")
    func everyKind() {
        for kind in Finding.Kind.allCases {
            #expect(
                !Legend.meaning(ofKind: kind).hasPrefix("see the finding's"),
                "give the rule of \(kind.rawValue) a summary")
        }
    }
}
