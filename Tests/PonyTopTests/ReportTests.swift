import Foundation
import PonyTestSupport
import Testing

@Suite("ponytop --report, headless")
struct ReportTests {
    func report(_ arguments: [String]) throws -> (status: Int32, json: [String: Any]) {
        let result = try ChildProcess.run([PonyTopBinary.path, "--report", "json"] + arguments, timeout: 60)
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return (result.status, try #require(json, "not a JSON object: \(result.output) \(result.error)"))
    }

    @Test("app: every key present, totals are the sums of the mail types, no finding")
    func app() throws {
        let (status, json) = try report(["--scenario", "app", "--duration", "2", "--fail-on", "any"])
        #expect(status == 0)
        #expect(Set(json.keys) == ["scenario", "duration_seconds", "rate", "seed", "totals", "mail_types", "findings"])
        #expect(json["scenario"] as? String == "app")
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(
            Set(totals.keys) == [
                "posts", "deliveries", "skipped", "pruned", "recipients_alive", "posts_per_second",
                "deliveries_per_second",
            ])
        let mailTypes = try #require(json["mail_types"] as? [[String: Any]])
        #expect(!mailTypes.isEmpty)
        for mailType in mailTypes {
            #expect(
                Set(mailType.keys) == [
                    "name", "posts", "deliveries", "recipients_alive", "pruned", "latency", "queue_wait",
                ])
            let latency = try #require(mailType["latency"] as? [String: Double])
            #expect(Set(latency.keys) == ["count", "p50_us", "p90_us", "p99_us", "max_us"])
            let ordered = [latency["p50_us"]!, latency["p90_us"]!, latency["p99_us"]!, latency["max_us"]!]
            #expect(ordered == ordered.sorted(), "percentiles rise: \(latency)")
            #expect(latency["count"] == (mailType["deliveries"] as? Double))
        }
        func sum(_ key: String) -> Int { mailTypes.reduce(0) { $0 + (($1[key] as? Int) ?? 0) } }
        #expect(totals["posts"] as? Int == sum("posts"))
        #expect(totals["deliveries"] as? Int == sum("deliveries"))
        #expect(totals["recipients_alive"] as? Int == sum("recipients_alive"))
        #expect((totals["posts"] as? Int ?? 0) > 0)
        #expect((json["findings"] as? [Any])?.isEmpty == true)
    }

    @Test("leaky with the default duration: both leaks, their evidence, --fail-on leaks exits 1 saying why")
    func leaky() throws {
        let result = try ChildProcess.run(
            [PonyTopBinary.path, "--report", "json", "--scenario", "leaky", "--fail-on", "leaks"], timeout: 60)
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        let leaks = findings.filter { $0["category"] as? String == "leak" }
        #expect(Set(leaks.compactMap { $0["subject"] as? String }) == ["block", "SessionViewModel"])
        for leak in leaks {
            #expect(Set(leak.keys).isSuperset(of: ["kind", "category", "mail_type", "explanation", "evidence"]))
            #expect((leak["site"] as? String)?.contains(".swift:") == true)
            let evidence = try #require(leak["evidence"] as? [[String: Any]])
            #expect(
                evidence.contains { $0["name"] as? String == "oldest age" && $0["unit"] as? String == "nanoseconds" })
        }
        let lines = result.error.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("ponytop: --fail-on leaks: leak growingRegistrations ") }.count == 2)
        #expect(lines.contains { $0.hasPrefix("ponytop: note: --duration 5 s is shorter than the 60 s") })
    }

    @Test(
        "--fail-on leaks passes dead weak references (churn) and the healthy app",
        arguments: ["churn", "app"])
    func noLeak(scenario: String) throws {
        let result = try ChildProcess.run(
            [PonyTopBinary.path, "--report", "text", "--scenario", scenario, "--fail-on", "leaks", "--duration", "6"],
            timeout: 60)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("  leak "))
    }

    @Test("the text report has the totals, a row per mail type and the findings count")
    func text() throws {
        let result = try ChildProcess.run([PonyTopBinary.path, "--report", "text", "--duration", "1"])
        #expect(result.status == 0)
        #expect(result.output.contains("totals: posts "))
        #expect(result.output.contains("MAIL TYPE"))
        #expect(result.output.contains("P99 us"))
        #expect(result.output.contains("findings: 0"))
        #expect(!result.output.contains("\u{1b}"))
    }
}
