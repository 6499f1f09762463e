import PonyExpressMonitor
import PonyTopUI
import Testing

@Suite("The legend says what every kind of finding means")
struct LegendTests {
    @Test("every kind the monitor reports has a line in the legend")
    func everyKind() {
        for kind in Finding.Kind.allCases {
            #expect(
                !Legend.meaning(ofKind: kind.rawValue).hasPrefix("see the finding's"),
                "add \(kind.rawValue) to Legend.kindMeanings")
        }
    }
}
