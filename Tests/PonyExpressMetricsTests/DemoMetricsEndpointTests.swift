import Foundation
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ponydemo --metrics`: what it serves, where, and how it refuses what it cannot do.
@Suite("ponydemo --metrics", .serialized)
struct DemoMetricsEndpointTests {
    @Test(
        "bad --metrics values: one line naming what was wrong and what is valid, exit 64",
        arguments: [
            (["--metrics", "http"], "bad port 'http'"), (["--metrics", "127.0.0.1:"], "no port"),
            (["--metrics", "70000"], "bad port '70000'"), (["--metrics", "localhost:-1"], "bad port '-1'"),
            (["--metrics", "a b:9"], "bad host 'a b'"),
        ])
    func badValues(arguments: [String], mention: String) throws {
        let result = try ChildProcess.run([DemoBinary.path] + arguments + ["--duration", "5"], timeout: 30)
        #expect(result.status == 64)
        let first = result.error.split(separator: "\n").first ?? ""
        #expect(first.contains("--metrics"), "\(result.error)")
        #expect(first.contains(mention), "\(result.error)")
        #expect(first.contains("expected PORT, :PORT (both on 127.0.0.1) or HOST:PORT"), "\(result.error)")
    }

    @Test("a port in use: one line naming it, exit 2, no stack trace")
    func portInUse() throws {
        let busy = LoopbackHTTP.listeningSocket()
        defer { close(busy.socket) }
        let directory = PrometheusScrapeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ChildProcess.run(
            [DemoBinary.path, "--metrics", ":\(busy.port)", "--duration", "5"],
            environment: ["XDG_RUNTIME_DIR": directory], timeout: 30)
        #expect(result.status == 2, "\(result.error)")
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "\(result.error)")
        #expect(lines.first?.contains("--metrics: cannot listen on 127.0.0.1:\(busy.port)") == true, "\(result.error)")
        #expect(result.error.contains("in use"), "\(result.error)")
    }

    @Test("GET /metrics serves Prometheus text on 127.0.0.1 by default; another path is 404")
    func servesMetricsOnly() throws {
        let directory = PrometheusScrapeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = LoopbackHTTP.freePort()
        let demo = try ChildProcess.spawn(
            [DemoBinary.path, "--scenario", "leaky", "--metrics", "\(port)", "--duration", "120"],
            environment: ["XDG_RUNTIME_DIR": directory], stdout: directory + "/demo.out")
        defer { PrometheusScrapeTests.stop(demo) }
        var metrics: LoopbackHTTP.Response?
        #expect(
            waitUntil(timeout: 30, pollingEvery: 0.1) {
                metrics = LoopbackHTTP.get(port: port, path: "/metrics")
                return metrics?.body.contains("ponyexpress_posts_total{mail_type=\"CartUpdated\"}") == true
            })
        #expect(metrics?.status == 200)
        #expect(metrics?.body.contains("# TYPE ponyexpress_posts_total counter") == true)
        #expect(metrics?.body.contains("# TYPE ponyexpress_live_recipients gauge") == true)
        #expect(LoopbackHTTP.get(port: port, path: "/")?.status == 404)
        #expect(LoopbackHTTP.get(port: port, path: "/metricsx")?.status == 404)
        let banner = (try? String(contentsOfFile: directory + "/demo.out", encoding: .utf8)) ?? ""
        #expect(banner.contains("metrics at http://127.0.0.1:\(port)/metrics"), "\(banner)")
    }
}
