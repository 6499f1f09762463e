import Foundation
import PonyTestSupport
import Testing

@Suite("ponytop --report, headless", .blocksItsThread)
struct ReportTests {
    func report(_ arguments: [String]) throws -> (status: Int32, json: [String: Any]) {
        let result = try ChildProcess.run([PonyTopBinary.path, "--report", "json"] + arguments, timeout: 60)
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return (result.status, try #require(json, "not a JSON object: \(result.output) \(result.error)"))
    }

    @Test("app: every key present, versioned, totals are the sums of the mail types, no finding")
    func app() throws {
        let (status, json) = try report(["--scenario", "app", "--duration", "2", "--fail-on", "any"])
        #expect(status == 0)
        #expect(
            Set(json.keys) == [
                "schema_version", "tool", "source", "scenario", "duration_seconds", "rate", "seed", "totals",
                "mail_types", "queues", "prunes", "findings", "partial", "interrupted_by",
            ])
        #expect(json["schema_version"] as? Int == 3)
        #expect(json["partial"] as? Bool == false)
        #expect((json["tool"] as? String)?.hasPrefix("ponytop ") == true)
        #expect(json["scenario"] as? String == "app")
        #expect(json["source"] as? NSDictionary == ["kind": "scenario", "name": "app", "pid": NSNull()])
        #expect(json["rate"] as? Double == 1)
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(
            Set(totals.keys) == [
                "posts", "deliveries", "skipped", "pruned", "recipients", "posts_per_second",
                "deliveries_per_second", "prunes_per_second", "counts_cover", "app_lifetime",
            ])
        #expect(totals["counts_cover"] as? String == "run")
        #expect(totals["app_lifetime"] is NSNull, "a scenario's run is its lifetime")
        let mailTypes = try #require(json["mail_types"] as? [[String: Any]])
        #expect(!mailTypes.isEmpty)
        for mailType in mailTypes {
            #expect(
                Set(mailType.keys) == [
                    "name", "posts", "deliveries", "pruned", "posts_per_second", "deliveries_per_second", "recipients",
                    "own_recipients", "inherited_recipients", "superclasses", "handler_time", "queue_wait", "sites",
                    "verified", "required_sender", "relay",
                ])
            #expect(mailType["relay"] is NSNull, "a scenario shares no mail type with other processes")
            if let latency = mailType["handler_time"] as? [String: Double] {
                #expect(Set(latency.keys) == ["count", "p50_us", "p90_us", "p99_us", "max_us"])
                let ordered = [latency["p50_us"]!, latency["p90_us"]!, latency["p99_us"]!, latency["max_us"]!]
                #expect(ordered == ordered.sorted(), "percentiles rise: \(latency)")
                // Handler times are sampled (MonitorSettings.handlerTimingInterval): the count is the timed runs.
                let deliveries = (mailType["deliveries"] as? Double) ?? 0
                #expect((latency["count"] ?? 0) > 0 && (latency["count"] ?? 0) <= deliveries)
            } else {
                #expect(mailType["handler_time"] is NSNull, "no data is null")
                #expect(mailType["deliveries"] as? Int == 0)
            }
        }
        func sum(_ key: String) -> Int { mailTypes.reduce(0) { $0 + (($1[key] as? Int) ?? 0) } }
        #expect(totals["posts"] as? Int == sum("posts"))
        #expect(totals["deliveries"] as? Int == sum("deliveries"))
        #expect(totals["recipients"] as? Int == sum("own_recipients"))
        #expect((totals["posts"] as? Int ?? 0) > 0)
        #expect((json["findings"] as? [Any])?.isEmpty == true)
        let queues = try #require(json["queues"] as? [[String: Any]])
        #expect(queues.contains { ($0["wait"] as? [String: Double])?["p99_us"] != nil }, "queue waits are reported")
        let screen = try #require(mailTypes.first { $0["name"] as? String == "ScreenViewed" })
        #expect(screen["superclasses"] as? [String] == ["AppEvent"])
        let sites = try #require(screen["sites"] as? [[String: Any]])
        #expect(sites.contains { $0["inherited"] as? Bool == true && $0["registered_for"] as? String == "AppEvent" })
    }

    /// 15 s, not the default 5: `ponybench findings` finds both leaks at 4.1 s on a quiet machine (its 5 s target is
    /// the benchmark's), and a loaded machine or a sanitizer must not fail this test for being slow.
    @Test("leaky: both leaks, their evidence, --fail-on leaks exits 1 saying why")
    func leaky() throws {
        let result = try ChildProcess.run(
            [PonyTopBinary.path, "--report", "json", "--scenario", "leaky", "--duration", "15", "--fail-on", "leaks"],
            timeout: 90)
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        let leaks = findings.filter { $0["category"] as? String == "leak" }
        #expect(Set(leaks.compactMap { $0["subject"] as? String }) == ["block", "SessionViewModel"])
        for leak in leaks {
            #expect(Set(leak.keys).isSuperset(of: ["kind", "category", "mail_type", "explanation", "evidence"]))
            #expect((leak["site"] as? String)?.contains(".swift:") == true)
            let evidence = try #require(leak["evidence"] as? [[String: Any]])
            #expect(evidence.contains { $0["name"] as? String == "oldest age" }, "the numbers behind it")
        }
        let lines = result.error.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("ponytop: --fail-on leaks: leak growingRegistrations ") }.count == 2)
        #expect(lines.contains { $0.hasPrefix("ponytop: note: --duration 15 s is shorter than the 60 s") })
        // The leaking site as the recipients pane shows it: one row, many recipients, growing.
        let mailTypes = try #require(json["mail_types"] as? [[String: Any]])
        let cart = try #require(mailTypes.first { $0["name"] as? String == "CartUpdated" })
        let site = try #require((cart["sites"] as? [[String: Any]])?.first)
        #expect(
            (site["site"] as? String)?.hasSuffix("CellObserver.swift:10") == true,
            "the leaking group registers at its own site: \(site)")
        #expect((site["recipients"] as? Int ?? 0) >= 15, "\(site)")
        #expect((site["growth_ten_seconds"] as? Int ?? 0) > 0, "\(site)")
        #expect(site["queue"] is NSNull, "synchronous: no queue, null")
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

    /// Issue 39: after 6 minutes on a loaded machine, the healthy default showed a stalled and a rising queue. The
    /// load here is the issue's: two busy loops, one per core, at the same priority as ponytop. A 5-minute run of
    /// each healthy built-in is in the Findings article; CI affords one minute of the default.
    @Test(
        "the healthy app shows no finding for a minute beside two busy loops on the two cores",
        .skipped(under: .thread, .address, because: "a sanitizer's slowdown is a load of its own"))
    func healthyUnderLoad() async throws {
        // Every other turn as well as the real-time tests' gate: its busy loops would starve the others' deadlines.
        let result = try await BlockingExecutor.withEveryOtherTurn {
            try await MachineLoad.alone {
                try MachineLoad.besideBusyLoops {
                    try ChildProcess.run(
                        [PonyTopBinary.path, "--report", "json", "--scenario", "app", "--duration", "60"],
                        timeout: 180)
                }
            }
        }
        #expect(result.status == 0, "\(result.error)")
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]], "\(result.output) \(result.error)")
        #expect(findings.isEmpty, "\(findings.map { $0["explanation"] ?? $0 })")
        let totals = try #require(json?["totals"] as? [String: Any])
        #expect((totals["posts"] as? Int ?? 0) > 1_000, "the scenario ran: \(totals)")
    }

    @Test("the text report has the totals, the mail types with their sites, the queues and the findings")
    func text() throws {
        let result = try ChildProcess.run([PonyTopBinary.path, "--report", "text", "--duration", "1"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("ponytop "))
        #expect(result.output.contains("totals over the run: posts "))
        #expect(result.output.contains("MAIL TYPE"))
        #expect(result.output.contains("WAIT P99"))
        #expect(result.output.contains("recipients of ScreenViewed"))
        #expect(result.output.contains("via AppEvent"))
        #expect(result.output.contains("queues: "))
        #expect(result.output.contains("findings seen during the run: 0"))
        #expect(!result.output.contains("\u{1b}"))
    }
}
