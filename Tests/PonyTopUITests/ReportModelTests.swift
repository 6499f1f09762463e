import PonyExpress
import PonyExpressMonitor
import PonyTopUI
import Testing

@Suite("The report model")
struct ReportModelTests {
    final class Listener: Sendable {
        func receive(_ mail: ReportMail) {}
    }

    func report() -> Report {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        let listener = Listener()
        office.register(listener, Listener.receive)
        office.register { (_: ReportMail) in }
        for _ in 0..<3 { office.post(ReportMail()) }
        return Report(snapshot: monitor.snapshot(), scenario: "test", durationSeconds: 1.5, rate: 2, seed: 7)
    }

    @Test("JSON has snake_case keys and decodes back to the same report")
    func json() throws {
        let report = report()
        let json = report.json()
        for key in [
            "\"duration_seconds\"", "\"mail_types\"", "\"recipients_alive\"", "\"p50_us\"", "\"queue_wait\"",
            "\"posts_per_second\"",
        ] {
            #expect(json.contains(key))
        }
        #expect(try Report.decode(json: json) == report)
        let row = try #require(report.mailTypes.first { $0.name == "ReportMail" })
        #expect(row.posts == 3)
        #expect(row.deliveries == 6)
        #expect(row.recipientsAlive == 2)
        #expect(row.latency.count == 6)
        #expect(report.totals.posts == report.mailTypes.reduce(0) { $0 + $1.posts })
    }

    @Test("text has the run, the totals, a row per mail type and the findings")
    func text() {
        let text = report().text()
        #expect(text.hasPrefix("ponytop report: scenario test, 1.5 s, rate 2.0, seed 7\n"))
        #expect(text.contains("totals: posts 3, deliveries 6, skipped 0, pruned 0, recipients alive 2"))
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("ReportMail ") })
        #expect(text.hasSuffix("findings: 0\n"))
        #expect(!report().hasFinding(category: nil))
    }
}

struct ReportMail: Mail {}
