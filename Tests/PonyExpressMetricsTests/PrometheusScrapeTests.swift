import Foundation
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ponydemo --metrics` scraped by a real Prometheus server, on loopback ports of the test's own (a Prometheus
/// service that the Debian package may have started on 9090 is left alone).
@Suite("ponydemo's metrics scraped by Prometheus", .blocksItsThread, .serialized)
struct PrometheusScrapeTests {
    /// The `prometheus` server on the PATH, if installed.
    static let prometheus: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map { "\($0)/prometheus" } + ["/usr/bin/prometheus"])
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// A scenario with a known population: 37 status bars on `Reachability`, posted to 50 times a second.
    static let scenario = """
        {
            "name": "scrape",
            "summary": "37 status bars on Reachability",
            "then": "repeat",
            "recipients": [ { "kind": "StatusBarController", "mail": "Reachability", "count": 37 } ],
            "phases": [ { "name": "steady", "duration": 600, "threads": 1, "rate": 50, "mail": { "Reachability": 1 } } ]
        }
        """

    static let posts = #"ponyexpress_posts_total{mail_type="Reachability"}"#
    static let live = #"ponyexpress_live_recipients{mail_type="Reachability"}"#

    /// A directory of the test's own, removed at the end.
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/ponyexpress-metrics-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// Ends a child process: SIGTERM, then SIGKILL if it has not exited within 10 seconds; always reaped.
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        _ = ChildProcess.wait(for: pid, timeout: 10)
    }

    /// An instant query's single sample: when Prometheus scraped it (seconds since 1970) and its value.
    static func query(_ expression: String, port: Int) -> (time: Double, value: Double)? {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "+&=")
        guard let encoded = expression.addingPercentEncoding(withAllowedCharacters: allowed),
            let response = LoopbackHTTP.get(port: port, path: "/api/v1/query?query=" + encoded), response.status == 200,
            let json = try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any],
            let data = json["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
            let sample = result.first?["value"] as? [Any], sample.count == 2, let time = sample[0] as? Double,
            let text = sample[1] as? String, let value = Double(text)
        else { return nil }
        return (time, value)
    }

    @Test(
        "Prometheus scrapes the posts counter and the live recipients gauge that /metrics serves",
        .enabled(if: prometheus != nil, "prometheus is not installed (apt-get install prometheus)"))
    func prometheusScrapesTheDemo() throws {
        let prometheus = try #require(Self.prometheus)
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.scenario.write(toFile: directory + "/scrape.json", atomically: true, encoding: .utf8)
        let metricsPort = LoopbackHTTP.freePort()
        let demo = try ChildProcess.spawn(
            [
                DemoBinary.path, "--scenario", directory + "/scrape.json", "--metrics", "127.0.0.1:\(metricsPort)",
                "--duration", "300",
            ],
            environment: ["XDG_RUNTIME_DIR": directory], stdout: directory + "/demo.out",
            stderr: directory + "/demo.err")
        defer { Self.stop(demo) }

        var served: (live: Double?, posts: Double?)
        #expect(
            waitUntil(timeout: 30, pollingEvery: 0.1) {
                let text = LoopbackHTTP.get(port: metricsPort, path: "/metrics")?.body ?? ""
                served = (DemoBinary.value(of: Self.live, in: text), DemoBinary.value(of: Self.posts, in: text))
                return served.live == 37 && (served.posts ?? 0) > 0
            }, "ponydemo served \(served) (live recipients, posts), not 37 and some posts")

        let prometheusPort = LoopbackHTTP.freePort()
        let config = """
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
            scrape_configs:
              - job_name: ponydemo
                static_configs:
                  - targets: ['127.0.0.1:\(metricsPort)']
            """
        try config.write(toFile: directory + "/prometheus.yml", atomically: true, encoding: .utf8)
        let server = try ChildProcess.spawn(
            [
                prometheus, "--config.file=\(directory)/prometheus.yml", "--storage.tsdb.path=\(directory)/data",
                "--web.listen-address=127.0.0.1:\(prometheusPort)", "--log.level=warn",
            ],
            stdout: directory + "/prometheus.out", stderr: directory + "/prometheus.err")
        defer { Self.stop(server) }

        // A value the app served, then a sample Prometheus scraped after it, then a value the app served after that:
        // a counter's scraped value lies between the two served ones.
        let before = try #require(
            LoopbackHTTP.get(port: metricsPort, path: "/metrics").flatMap {
                DemoBinary.value(of: Self.posts, in: $0.body)
            })
        let servedAt = Date().timeIntervalSince1970
        var scraped: (time: Double, value: Double)?
        let gotScrape = waitUntil(timeout: 60, pollingEvery: 0.25) {
            scraped = Self.query(Self.posts, port: prometheusPort)
            return (scraped?.time ?? 0) > servedAt
        }
        let log = (try? String(contentsOfFile: directory + "/prometheus.err", encoding: .utf8)) ?? ""
        #expect(gotScrape, "Prometheus scraped nothing after the app served its counter; its log:\n\(log.suffix(2000))")
        let after = try #require(
            LoopbackHTTP.get(port: metricsPort, path: "/metrics").flatMap {
                DemoBinary.value(of: Self.posts, in: $0.body)
            })
        let posts = try #require(scraped?.value)
        #expect(before > 0)
        #expect(before <= posts && posts <= after, "served \(before), then scraped \(posts), then served \(after)")

        let live = Self.query(Self.live, port: prometheusPort)
        #expect(live?.value == 37, "Prometheus has \(String(describing: live)) live recipients of Reachability")
        let up = Self.query(#"up{job="ponydemo"}"#, port: prometheusPort)
        #expect(up?.value == 1)
    }
}
