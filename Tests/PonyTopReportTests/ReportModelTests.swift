import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import PonyTopModel
import PonyTopReport
import Testing

@Suite("The report model")
struct ReportModelTests {
    final class Listener: Sendable {
        func receive(_ mail: ReportMail) {}
    }

    /// The monitor's snapshot of a post office after `work`.
    func snapshot(after work: (PostOffice) -> Void) -> MonitorSnapshot {
        let office = PostOffice()
        // Every post timed, so that the handler-time histogram counts every delivery.
        var settings = MonitorSettings()
        settings.handlerTimingInterval = 1
        let monitor = PostOfficeMonitor(settings: settings)
        monitor.attach(to: office)
        defer { monitor.detach() }
        work(office)
        return monitor.snapshot()
    }

    func report() -> Report {
        let listener = Listener()
        let snapshot = snapshot { office in
            office.register(listener, Listener.receive)
            office.register { (_: ReportMail) in }
            for _ in 0..<3 { office.post(ReportMail()) }
        }
        return Report(
            snapshot: snapshot, source: Report.Source(kind: .scenario, name: "test"), durationSeconds: 1.5, rate: 2,
            seed: 7)
    }

    @Test("JSON has snake_case keys and decodes back to the same report")
    func json() throws {
        let report = report()
        let json = report.json()
        for key in [
            "\"schema_version\" : 3", "\"tool\" : \"ponytop ", "\"duration_seconds\"", "\"mail_types\"",
            "\"recipients\"", "\"p50_us\"", "\"handler_time\"", "\"posts_per_second\"", "\"sites\"",
            "\"queues\"", "\"prunes\"", "\"growth_ten_seconds\"",
        ] {
            #expect(json.contains(key), "\(key)")
        }
        #expect(try Report.decode(json: json) == report)
        let row = try #require(report.mailTypes.first { $0.name == "ReportMail" })
        #expect(row.posts == 3)
        #expect(row.deliveries == 6)
        #expect(row.recipients == 2)
        #expect(row.handlerTime.value?.count == 6)
        #expect(row.sites.count == 2)
        #expect(report.totals.posts == report.mailTypes.reduce(0) { $0 + $1.posts })
    }

    @Test("a verified mail type says so and names its required sender; other mail says it is not")
    func verifiedMailType() throws {
        final class Courier {}
        struct Parcel: VerifiedMail { typealias RequiredSender = Courier }
        let snapshot = snapshot { office in
            office.register { (_: Parcel, _: Courier) in }
            office.register { (_: ReportMail) in }
            office.post(Parcel(), sender: Courier())
            office.post(ReportMail())
        }
        let report = Report(
            snapshot: snapshot, source: Report.Source(kind: .scenario, name: "test"), durationSeconds: 1, rate: 1,
            seed: 1)
        let parcel = try #require(report.mailTypes.first { $0.name == "Parcel" })
        let plain = try #require(report.mailTypes.first { $0.name == "ReportMail" })
        #expect(parcel.verified && parcel.requiredSender.value == "Courier")
        #expect(!plain.verified && plain.requiredSender.value == nil)
        let json = report.json()
        #expect(json.contains("\"verified\" : true") && json.contains("\"required_sender\" : \"Courier\""))
        #expect(json.contains("\"required_sender\" : null"))
    }

    @Test("no data is null, not 0: synchronous mail has no queue wait, a block no object type")
    func nullsForNoData() throws {
        let json = report().json()
        #expect(json.contains("\"queue_wait\" : null"))
        #expect(json.contains("\"recipient_type\" : null"), "a block has no object type")
        #expect(json.contains("\"queue\" : null"))
        #expect(!json.contains("\"queue_wait\" : {\n      \"count\" : 0"))
    }

    @Test("text has the run, the totals, a row per mail type, its sites and the findings")
    func text() {
        let text = report().text()
        #expect(text.hasPrefix("ponytop 0.2.0 report: scenario test, 1.5 s, rate 2.0, seed 7\n"))
        #expect(text.contains("totals over the run: posts 3, deliveries 6, skipped 0, pruned 0, recipients 2"))
        #expect(text.contains("recipients of ReportMail: 2 at 2 sites"))
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("ReportMail ") })
        #expect(text.hasSuffix("findings seen during the run: 0\n"))
        #expect(!report().hasFinding(category: nil))
    }

    @Test("an attached app's or a recording's report names the app and its pid, and has no scenario, rate or seed")
    func appSource() throws {
        let snapshot = snapshot { office in
            office.register { (_: ReportMail) in }
            office.post(ReportMail())
        }
        for (kind, header) in [
            (Report.Source.Kind.attached, "\(ToolVersion.named) report: app shop (pid 42), 2.0 s\n"),
            (.replay, "\(ToolVersion.named) report: recording of shop (pid 42), 2.0 s\n"),
        ] {
            let report = Report(
                snapshot: snapshot, source: Report.Source(kind: kind, name: "shop", pid: 42), durationSeconds: 2,
                rate: 3, seed: 9)
            #expect(report.text().hasPrefix(header))
            let json = report.json()
            for null in ["\"scenario\" : null", "\"rate\" : null", "\"seed\" : null"] {
                #expect(json.contains(null), "\(null)")
            }
            #expect(json.contains("\"kind\" : \"\(kind.rawValue)\""))
            #expect(json.contains("\"pid\" : 42"))
            #expect(try Report.decode(json: json) == report)
        }
    }

    @Test("evidence reads in its unit, in the text report and in JSON, as the details view shows it")
    func evidenceInItsUnit() throws {
        let snapshot = snapshot { office in
            office.register { (_: ReportMail) in }
            office.register { (_: ReportMail) in spin(nanoseconds: 300_000) }
            for _ in 0..<20 { office.post(ReportMail()) }
        }
        let report = Report(
            snapshot: snapshot, source: Report.Source(kind: .scenario, name: "test"), durationSeconds: 1,
            rate: 1, seed: 1)
        let slow = try #require(report.findings.first { $0.kind == "slowRecipient" })
        let mean = try #require(slow.evidence.first { $0.unit == "nanoseconds" })
        #expect(mean.value >= 300_000)
        #expect(mean.text == Units.duration(UInt64(mean.value.rounded())))
        #expect(mean.text.hasSuffix("µs") || mean.text.hasSuffix("ms"), "\(mean.text)")
        let share = try #require(slow.evidence.first { $0.unit == "share" })
        #expect(share.text.hasSuffix("%"))
        #expect(report.text().contains("\(mean.name) \(mean.text)"))
        #expect(report.json().contains("\"text\" : \"\(mean.text)\""))
    }
}

struct ReportMail: Mail {}
