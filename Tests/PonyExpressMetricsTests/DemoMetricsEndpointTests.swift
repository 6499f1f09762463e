import Foundation
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ponydemo --metrics`: what it serves, where, and how it refuses what it cannot do.
@Suite("ponydemo --metrics", .blocksItsThread, .serialized)
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

    @Test("a non-loopback --metrics address is refused in one line: the endpoint has no authentication")
    func nonLoopbackRefused() throws {
        let result = try ChildProcess.run([DemoBinary.path, "--metrics", "0.0.0.0:0", "--duration", "5"], timeout: 30)
        #expect(result.status == 64)
        let lines = result.error.split(separator: "\n")
        #expect(lines.first?.contains("0.0.0.0 is not loopback") == true, "\(result.error)")
        #expect(lines.first?.contains("SSH tunnel") == true, "\(result.error)")
        // The flag that once allowed it is gone.
        let flag = try ChildProcess.run(
            [DemoBinary.path, "--metrics", "0.0.0.0:0", "--metrics-unauthenticated", "--duration", "5"], timeout: 30)
        #expect(flag.status == 64)
    }

    @Test(
        "malformed and pipelined-but-unread requests: closed, bounded memory, still serving",
        .tags(.concurrency))
    func hostileClients() throws {
        let directory = PrometheusScrapeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = LoopbackHTTP.freePort()
        let demo = try ChildProcess.spawn(
            [DemoBinary.path, "--scenario", "leaky", "--metrics", "\(port)", "--duration", "120"],
            environment: ["XDG_RUNTIME_DIR": directory], stdout: directory + "/demo.out")
        defer { PrometheusScrapeTests.stop(demo) }
        #expect(waitUntil(timeout: 30, pollingEvery: 0.1) { LoopbackHTTP.get(port: port, path: "/metrics") != nil })

        // A malformed request gets 400 and its connection is closed.
        let bad = try #require(LoopbackHTTP.connection(to: port))
        defer { close(bad) }
        _ = send(bad, Array("NOT HTTP AT ALL\r\n\r\n".utf8), 19, Int32(MSG_NOSIGNAL))
        let answer = LoopbackHTTP.readToEnd(bad, timeout: 10)
        #expect(answer.closed, "the connection stays open after a 400")
        #expect(String(decoding: answer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400"))

        // 20,000 pipelined requests that are never read.
        let baseline = LoopbackHTTP.residentBytes(of: demo)
        var peak = baseline
        let flood = try #require(LoopbackHTTP.connection(to: port))
        defer { close(flood) }
        _ = fcntl(flood, F_SETFL, fcntl(flood, F_GETFL) | O_NONBLOCK)
        var unsent = Array(
            String(repeating: "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 20_000).utf8)[...]
        let sendUntil = Date().addingTimeInterval(10)
        while !unsent.isEmpty, Date() < sendUntil {
            let count = unsent.withUnsafeBytes { send(flood, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 { unsent = unsent.dropFirst(count) } else { usleep(2_000) }
            peak = max(peak, LoopbackHTTP.residentBytes(of: demo))
        }
        // The endpoint stops reading while its answers wait, and closes the connection after its unread deadline.
        let closed = waitUntil(timeout: 40, pollingEvery: 0.05) {
            peak = max(peak, LoopbackHTTP.residentBytes(of: demo))
            var probe: UInt8 = 0
            return send(flood, &probe, 0, Int32(MSG_NOSIGNAL)) < 0 || LoopbackHTTP.peerClosed(flood)
        }
        #expect(closed, "the flooding connection was never closed")
        let grown = Double(peak - baseline) / 1_048_576
        // A sanitizer's shadow memory grows with every allocation: the bound holds for the plain build.
        #expect(
            grown < 32 || Sanitizer.active != nil,
            "ponydemo's resident memory grew by \(grown) MiB under 20,000 unread pipelined requests")
        #expect(LoopbackHTTP.get(port: port, path: "/metrics")?.status == 200)
    }

    @Test("500 connections trickling a request hold no slot: every scrape succeeds, and a trickled request is closed")
    func tricklingPeers() throws {
        let directory = PrometheusScrapeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = LoopbackHTTP.freePort()
        let demo = try ChildProcess.spawn(
            [DemoBinary.path, "--scenario", "leaky", "--metrics", "\(port)", "--duration", "120"],
            environment: ["XDG_RUNTIME_DIR": directory], stdout: directory + "/demo.out")
        defer { PrometheusScrapeTests.stop(demo) }
        #expect(waitUntil(timeout: 30, pollingEvery: 0.1) { LoopbackHTTP.get(port: port, path: "/metrics") != nil })
        let baseline = LoopbackHTTP.residentBytes(of: demo)
        var peak = baseline

        // Each sends a head that announces a 1,000,000-byte body, then one byte of it a second.
        let head = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n".utf8)
        var open: [Int32] = []
        defer { open.forEach { close($0) } }
        for _ in 0..<500 {
            guard let socket = LoopbackHTTP.connection(to: port) else { continue }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            _ = send(socket, head, head.count, Int32(MSG_NOSIGNAL))
            open.append(socket)
        }
        #expect(open.count == 500, "only \(open.count) of 500 connections were made")
        // The newest trickler, which no later trickler evicts: its request must be closed by its deadline.
        let last = try #require(open.last)
        let started = Date()
        var lastClosedAfter: Double?
        var scrapes = 0
        var served = 0
        var closedByServer = 0
        while Date().timeIntervalSince(started) < 9 {
            var byte: UInt8 = 0x61
            closedByServer = 0
            for socket in open {
                if send(socket, &byte, 1, Int32(MSG_NOSIGNAL)) < 0 || LoopbackHTTP.peerClosed(socket) {
                    closedByServer += 1
                }
            }
            if lastClosedAfter == nil, LoopbackHTTP.peerClosed(last) {
                lastClosedAfter = Date().timeIntervalSince(started)
            }
            scrapes += 1
            if LoopbackHTTP.get(port: port, path: "/metrics")?.status == 200 { served += 1 }
            peak = max(peak, LoopbackHTTP.residentBytes(of: demo))
            _ = waitUntil(timeout: 1, pollingEvery: 0.05) { false }
        }
        #expect(served == scrapes, "\(served) of \(scrapes) scrapes answered beside 500 trickling connections")
        #expect(closedByServer >= 500 - 32, "only \(closedByServer) of the 500 trickling connections were closed")
        let deadline = 5.0 + (Sanitizer.active == nil ? 2 : 5)
        #expect(
            lastClosedAfter.map { $0 <= deadline } == true,
            "the newest trickling request was closed after \(lastClosedAfter ?? -1) s, not within \(deadline) s")
        let grown = Double(peak - baseline) / 1_048_576
        #expect(grown < 32 || Sanitizer.active != nil, "ponydemo grew by \(grown) MiB beside 500 trickling peers")
        print(
            "metrics endpoint beside 500 trickling peers: \(served)/\(scrapes) scrapes, \(closedByServer) closed, "
                + "the newest closed after \(lastClosedAfter ?? -1) s, resident memory +\(grown) MiB")
    }
}
