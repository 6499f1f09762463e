// Empty without the Hummingbird trait: an app's `traits: []` and `--disable-default-traits` leave Hummingbird out.
#if Hummingbird
    import Foundation
    import Hummingbird
    import Logging
    import NIOCore
    import PonyExpress
    import PonyExpressHummingbird
    import PonyExpressMonitor
    import PonyTestSupport
    import Synchronization
    import Testing

    private struct RoomMessage: Mail {}

    /// What the handlers saw of their scope, by route.
    private final class ScopesSeen: Sendable {
        let names = Mutex<[String: [String?]]>([:])

        func note(_ route: String) { names.withLock { $0[route, default: []].append(MailScope.current?.name) } }
    }

    /// `MailScopeMiddleware` (issue 42) in a real Hummingbird app on loopback: requests are scopes named by their
    /// route, and one request whose handler forgets to unregister is found at once, at the handler's line.
    ///
    /// The server's request handlers are async: on the cooperative pool, two tests elsewhere that block its two
    /// threads would keep them from answering (CI's plain pass once saw the example's request unanswered for 10 s,
    /// 2026-12-06). `.blocksItsThread` runs the test's nonisolated code, and so the server's child tasks, which inherit
    /// the preference, on threads of their own.
    @Suite(.blocksItsThread) struct MailScopeMiddlewareTests {
        private let scopesSeen = ScopesSeen()

        /// The line of the leaking handler's registration.
        private static let leakingLine: UInt = #line + 16

        /// A router whose routes register with `office`: `/rooms/:room` unregisters before it answers, and
        /// `/rooms/:room/events` leaks its registration; both note the scope they ran in.
        private func router(_ office: PostOffice) -> Router<BasicRequestContext> {
            let router = Router()
            router.add(middleware: MailScopeMiddleware(office, grace: .milliseconds(50)))
            router.get("/rooms/:room") { [scopesSeen] _, _ in
                scopesSeen.note("room")
                let id = office.register { (_: RoomMessage) in }
                office.unregister(id)
                return "room"
            }
            router.get("/rooms/:room/events") { [scopesSeen] _, _ in
                scopesSeen.note("events")
                // Subscribes the request to the room's messages, and forgets to unregister: the leak.
                office.register { (_: RoomMessage) in }
                return "subscribed"
            }
            return router
        }

        @Test("A leaking request on loopback is one outlivedScope finding, at the handler's line, named by the route")
        func oneLeakingRequest() async throws {
            let office = PostOffice()
            let monitor = PostOfficeMonitor()
            monitor.attach(to: office)
            defer { monitor.detach() }
            try await Self.serving(router(office)) { port in
                for room in 1...3 { #expect(await Self.get(port: port, path: "/rooms/\(room)")?.status == 200) }
                #expect(await Self.get(port: port, path: "/rooms/42/events")?.status == 200)
                #expect(await Self.get(port: port, path: "/lobby")?.status == 404)

                var findings: [Finding] = []
                let found = await Self.waitUntil(timeout: 10) {
                    findings = monitor.snapshot().findings
                    return !findings.isEmpty
                }
                #expect(found, "no finding within 10 s of one leaking request")
                #expect(findings.map(\.kind) == [.outlivedScope])
                let finding = try #require(findings.first)
                #expect(finding.subject == "GET /rooms/{room}/events")
                #expect(finding.mailType == TypeIdentity(RoomMessage.self))
                #expect(finding.site?.fileID == "PonyExpressHummingbirdTests/MailScopeMiddlewareTests.swift")
                #expect(finding.site?.line == Self.leakingLine)
                #expect(finding.evidence(named: .leakedScopes) == 1)
                #expect(finding.evidence(named: .cleanScopes) == 0)
            }
            #expect(
                scopesSeen.names.withLock { $0 }
                    == [
                        "room": Array(repeating: "GET /rooms/{room}", count: 3), "events": ["GET /rooms/{room}/events"],
                    ])
            #expect(MailScope.current == nil)
        }

        @Test("The module's example: a request that unregisters is one clean scope of its route")
        func documentedExample() async throws {
            // Example begin
            let office = PostOffice()
            let router = Router()
            router.add(middleware: MailScopeMiddleware(office))  // before the routes it covers
            router.get("/rooms/:room/events") { request, context in  // each request: a scope "GET /rooms/{room}/events"
                let id = office.register { (message: RoomMessage) in print(message) }
                defer { office.unregister(id) }  // without it, ponytop reports outlivedScope after one request
                return "subscribed"
            }
            // Example end
            let monitor = PostOfficeMonitor()
            monitor.attach(to: office)
            defer { monitor.detach() }
            try await Self.serving(router) { port in
                let answer = await Self.get(port: port, path: "/rooms/7/events")
                #expect(answer?.status == 200 && answer?.body == "subscribed")
                // The check runs once the default grace (1 s) has passed.
                var sites: [SiteStats] = []
                let checked = await Self.waitUntil(timeout: 10) {
                    sites = monitor.snapshot().sites
                    return sites.contains { !$0.scopes.isEmpty }
                }
                #expect(checked, "the scope was not checked within 10 s")
                #expect(
                    sites.flatMap(\.scopes) == [
                        ScopeCounts(name: "GET /rooms/{room}/events", leakedScopes: 0, cleanScopes: 1, outlived: 0)
                    ])
                #expect(monitor.snapshot().findings.isEmpty)
            }
        }

        /// Runs an app of `router` on a free loopback port while `body` runs with the port, then stops it.
        private static func serving(
            _ router: Router<BasicRequestContext>, _ body: (Int) async throws -> Void
        ) async throws {
            let (ports, portsIn) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in portsIn.yield(channel.localAddress?.port ?? 0) },
                logger: Self.quietLogger)
            try await withThrowingTaskGroup { group in
                group.addTask { try await app.run() }
                defer { group.cancelAll() }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                try await body(port)
            }
        }

        /// The server's logger, silent: stopping it by cancellation logs an error that is no failure of the test.
        private static let quietLogger = {
            var logger = Logger(label: "MailScopeMiddlewareTests")
            logger.logLevel = .critical
            return logger
        }()

        /// `LoopbackHTTP.get` on a thread of its own: it blocks, and the cooperative pool is the server's too.
        private static func get(port: Int, path: String) async -> LoopbackHTTP.Response? {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: LoopbackHTTP.get(port: port, path: path)) }.start()
            }
        }

        /// Polls `condition` every 10 ms until it holds or `timeout` seconds pass, without blocking a thread.
        private static func waitUntil(timeout: Double, _ condition: () -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(timeout)
            while ContinuousClock.now < deadline {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return condition()
        }
    }
#endif
