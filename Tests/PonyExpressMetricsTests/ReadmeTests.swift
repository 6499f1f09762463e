import CoreMetrics
import Foundation
import PonyExpress
import PonyExpressMetrics
import PonyExpressMonitor
import PonyTestSupport
import Prometheus
import Testing

/// The README's export example (and the module article's, the same) compiles and runs: this test holds it, and
/// DocumentedCodeTests compares it with the documents. It is the only code in the test process that
/// bootstraps `MetricsSystem`, which may happen once per process: other tests hand their factory to the publisher.
@Suite("the README's metrics example", .tags(.concurrency))
struct ReadmeTests {
    struct CartChanged: Mail { var items: Int }

    /// What the example serves, computed once per process.
    static let served: String = runExample()

    static func runExample() -> String {
        let monitor = PostOfficeMonitor()
        monitor.attach(to: .default)
        // README begin
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let publisher = MetricsPublisher(monitor: monitor)  // keep it; your agent's is `agent.monitor`
        publisher.start(every: .seconds(10))  // then GET /metrics answers registry.emit(into: &bytes)
        // README end
        PostOffice.default.post(CartChanged(items: 1))
        publisher.tick()
        publisher.stop()
        monitor.detach()
        var text: [UInt8] = []
        registry.emit(into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    @Test func theExampleCodeRuns() {
        #expect(Self.served.contains(#"ponyexpress_posts_total{mail_type="CartChanged"} 1"#), "\(Self.served)")
    }
}
