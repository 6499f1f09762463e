import Foundation
import Glibc
import PonyExpress
import PonyExpressAgent
import PonyExpressMonitor
import PonyExpressWire
import PonyTestSupport
import Synchronization
import Testing

/// What a hostile or broken viewer can cost the app: each attack runs against an agent in this process while the
/// post office keeps posting, and the process's resident memory is sampled throughout. The bound is the issue's
/// target, +32 MiB over the baseline; the time bounds are generous for a loaded machine.
@Suite("the agent under attack", .blocksItsThread, .serialized, .tags(.concurrency))
struct AgentAttackTests {
    struct Ping: Mail {}
    final class Listener: Sendable {
        func handle(_ mail: Ping) {}
    }

    /// An app: a post office with 2,000 live recipients (so that a full snapshot is a few hundred kilobytes), a
    /// thread posting to it, and an agent with short deadlines.
    final class App: Sendable {
        let office = PostOffice()
        let agent: MonitorAgent
        let posts = Atomic<Int>(0)
        private let running = Atomic<Bool>(true)
        private let listeners: [Listener]
        private let stopped = Atomic<Bool>(false)

        init(limits: MonitorAgent.Limits) throws {
            listeners = (0..<2_000).map { _ in Listener() }
            for listener in listeners { office.register(listener, Listener.handle) }
            agent = try MonitorAgent.start(
                watching: office, limits: limits, runtimeDirectory: temporaryRuntimeDirectory())
            let thread = Thread { [self] in
                while running.load(ordering: .relaxed) {
                    office.post(Ping())
                    posts.add(1, ordering: .relaxed)
                    usleep(200)
                }
                stopped.store(true, ordering: .releasing)
            }
            thread.start()
            waitUntil(timeout: 10) { posts.load(ordering: .relaxed) > 0 }
        }

        func stop() {
            running.store(false, ordering: .relaxed)
            waitUntil(timeout: 10) { stopped.load(ordering: .acquiring) }
            agent.stop()
        }
    }

    static func limits() -> MonitorAgent.Limits {
        var limits = MonitorAgent.Limits()
        limits.unreadReplyDeadline = 1
        limits.frameTimeout = 1
        limits.maximumViewers = 12
        return limits
    }

    /// Resident bytes of this process.
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(fd, &buffer, buffer.count)
        let fields = String(decoding: buffer[..<max(0, count)], as: UTF8.self).split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// Runs `attack`, then samples resident memory until `done` holds (or 30 s pass), and checks the bound and that
    /// the app kept posting.
    func underAttack(
        _ name: String, app: App, attack: () -> Void, until done: () -> Bool
    ) {
        let baseline = Self.residentBytes()
        let postsBefore = app.posts.load(ordering: .relaxed)
        var peak = baseline
        attack()
        let finished = waitUntil(timeout: 30, pollingEvery: 0.01) {
            peak = max(peak, Self.residentBytes())
            return done()
        }
        peak = max(peak, Self.residentBytes())
        #expect(finished, "\(name): the agent did not end the attack within 30 s")
        let grown = Double(peak - baseline) / 1_048_576
        print("agent under attack, \(name): resident memory +\(Units.decimal(grown, places: 1)) MiB at its peak")
        // A sanitizer's shadow memory grows with every allocation: the bound holds for the plain build. It is the
        // whole process's memory, and `swift test` runs the other suites beside this one: a full run on two cores once
        // saw 43 MiB here, where the attack alone stays under 32. Unbounded, these attacks grow it by gigabytes
        // (5,000 unread replies of about 1 MiB each), so 64 MiB still tells the two apart.
        #expect(grown < 64 || Sanitizer.active != nil, "\(name): resident memory grew by \(grown) MiB")
        #expect(
            waitUntil(timeout: 10) { app.posts.load(ordering: .relaxed) > postsBefore },
            "\(name): the app stopped posting")
    }

    @Test("a viewer that sends 5,000 full-snapshot requests and never reads is cut off, memory bounded")
    func unreadReplies() throws {
        let app = try App(limits: Self.limits())
        defer { app.stop() }
        let peer = try #require(RawPeer(path: app.agent.socketPath))
        peer.makeNonBlocking()
        let request = try Request.fullSnapshot.frame.bytes
        underAttack(
            "unread replies", app: app,
            attack: {
                // The agent stops reading once its replies back up: the rest of the requests do not fit.
                _ = peer.flood(request, count: 5_000, seconds: 10)
            }, until: { app.agent.viewerCount == 0 })
        // The app still serves a good viewer.
        let client = try AgentClient.connect(to: .socket(app.agent.socketPath))
        client.send(.snapshot(recipientsOf: []))
        #expect(client.waitForSnapshot(after: 0, timeout: 10) != nil)
        client.close()
    }

    @Test(
        "a viewer that asks for rule facts, then for full snapshots nonstop without reading, is cut off, memory bounded",
        arguments: [Request.includeRuleFacts, .factsToJudge(.any)])
    func unreadRepliesWithFacts(asking facts: Request) throws {
        let app = try App(limits: Self.limits())
        defer { app.stop() }
        let peer = try #require(RawPeer(path: app.agent.socketPath))
        peer.makeNonBlocking()
        // Facts in full count every mail type's living recipients, asking the post office about each: the costliest
        // snapshot a viewer can ask for.
        // Both ways of asking: a recording viewer before 1.9, and a viewer of 1.9 that judges itself with floors of 1.
        let request = try facts.frame.bytes + Request.fullSnapshot.frame.bytes
        underAttack(
            "unread replies with rule facts (\(facts == .includeRuleFacts ? "includeRuleFacts" : "factsToJudge"))",
            app: app,
            attack: { _ = peer.flood(request, count: 2_500, seconds: 10) }, until: { app.agent.viewerCount == 0 })
        let client = try AgentClient.connect(to: .socket(app.agent.socketPath))
        defer { client.close() }
        client.send(.snapshot(recipientsOf: []))
        let frame = try #require(client.waitForSnapshot(after: 0, timeout: 10))
        #expect(frame.snapshot.ruleFacts == nil, "another viewer's frames are as before")
    }

    @Test("a viewer that sends judge requests nonstop, good and refused, costs bounded memory and moves no one else")
    func judgeFlood() throws {
        let app = try App(limits: Self.limits())
        defer { app.stop() }
        let peer = try #require(RawPeer(path: app.agent.socketPath))
        peer.makeNonBlocking()
        var overrides = RuleOverrides()
        overrides.disable([.growingRegistrations, .oversubscribed])
        overrides.enable([.highPruneRate])
        // Rules of a newer viewer by the thousand: unknown kinds are ignored, one at a time.
        overrides.disabled += (0..<2_000).map { "aRuleOfANewerViewer\($0)" }
        try overrides.set("slowRecipient.share", to: 1)
        let request = try Request.judge(overrides).frame.bytes
        var sent = 0
        underAttack(
            "judge flood", app: app,
            attack: { sent = peer.flood(request, seconds: 3) }, until: { true })
        // Paced like every request: one per `minimumSnapshotInterval` (50 ms here), beside the few that fill the
        // socket's buffer and the agent's one read.
        #expect(sent > 0 && sent <= 72, "\(sent) requests in 3 s")
        print("agent under attack, judge flood: \(sent) judge requests of \(request.count) bytes sent in 3 s")
        // Another viewer is judged by the app's own rules: 2,000 recipients of Ping are over its threshold of 100,
        // though the flooding viewer turned that rule off for itself.
        let client = try AgentClient.connect(to: .socket(app.agent.socketPath))
        defer { client.close() }
        client.send(.snapshot(recipientsOf: []))
        let frame = try #require(client.waitForSnapshot(after: 0, timeout: 10))
        #expect(frame.snapshot.findings.contains { $0.kind == .oversubscribed })
    }

    @Test("ten peers that send part of a frame and go silent are cut off after the frame timeout")
    func silentPartialFrames() throws {
        let app = try App(limits: Self.limits())
        defer { app.stop() }
        var peers: [RawPeer] = []
        underAttack(
            "partial frames", app: app,
            attack: {
                for _ in 0..<10 {
                    guard let peer = RawPeer(path: app.agent.socketPath) else { continue }
                    // 60 KiB announced (under the 64 KiB request limit), 30 KiB sent.
                    peer.send([0, 0, 0xF0, 0x00, Frame.Kind.request.rawValue] + [UInt8](repeating: 7, count: 30_000))
                    peers.append(peer)
                }
            }, until: { app.agent.viewerCount == 0 })
        #expect(peers.count == 10)
        for peer in peers {
            #expect(String(decoding: peer.readToEnd(), as: UTF8.self).contains("did not complete within 1.0 s"))
        }
    }

    @Test("a request longer than the request limit ends its connection as soon as its length arrives")
    func oversizedRequest() throws {
        let app = try App(limits: Self.limits())
        defer { app.stop() }
        let peer = try #require(RawPeer(path: app.agent.socketPath))
        // 15 MiB announced: under the frame limit, far over the request limit. Nothing of the body is waited for.
        peer.send([0x00, 0xF0, 0x00, 0x00, Frame.Kind.request.rawValue])
        let reply = String(decoding: peer.readToEnd(), as: UTF8.self)
        #expect(reply.contains("a request of 15728640 bytes exceeds the agent's limit of 65536"), "\(reply)")
    }

    @Test("viewers over the cap are refused with an error frame that the viewer's client reports")
    func viewerCap() throws {
        var limits = Self.limits()
        limits.maximumViewers = 3
        let app = try App(limits: limits)
        defer { app.stop() }
        var clients = try (0..<3).map { _ in try AgentClient.connect(to: .socket(app.agent.socketPath)) }
        // Viewers that asked (a peer that has not would give its slot to the newcomer: ViewerSlotTests).
        for client in clients {
            client.send(.snapshot(recipientsOf: []))
            #expect(client.waitForSnapshot(after: 0, timeout: 10) != nil)
        }
        #expect(app.agent.viewerCount == 3)
        #expect(
            throws: AgentClientError.rejected(
                "refused: this app (pid \(getpid())) already serves 3 viewers, its limit "
                    + "(MonitorAgent.Limits.maximumViewers); try again when one has left")
        ) {
            try AgentClient.connect(to: .socket(app.agent.socketPath))
        }
        clients.removeLast().close()
        // The agent frees the slot when its event loop sees the connection end. CI's AddressSanitizer pass, with the
        // whole suite beside it, once did not see it within 10 s (2026-12-06; it passed alone six times in six), so
        // the bound is generous: what this checks is that the slot comes back, not how fast on a loaded machine.
        let closed = DispatchTime.now().uptimeNanoseconds
        #expect(
            waitUntil(timeout: 30) { app.agent.viewerCount == 2 },
            "\(app.agent.viewerCount) viewers \(Double(DispatchTime.now().uptimeNanoseconds - closed) / 1e9) s after the close"
        )
        let again = try AgentClient.connect(to: .socket(app.agent.socketPath))
        again.send(.snapshot(recipientsOf: []))
        #expect(again.waitForSnapshot(after: 0, timeout: 10) != nil)
        again.close()
        for client in clients { client.close() }
    }

    @Test("out-of-range limits are refused with the setting's name and what is valid")
    func invalidLimits() {
        var limits = MonitorAgent.Limits()
        limits.maximumViewers = 0
        #expect(throws: AgentError.invalidLimits("maximumViewers is 0; expected 1 or more")) {
            try MonitorAgent.start(
                watching: PostOffice(), limits: limits, runtimeDirectory: temporaryRuntimeDirectory())
        }
    }

    @Test("fuzz: 300 peers send random and mutated frames; the app stays bounded and keeps serving")
    func fuzz() throws {
        let app = try App(limits: Self.limits())
        defer { app.stop() }
        var random = SplitMix(seed: 21)
        var overrides = RuleOverrides()
        overrides.disable([.growingRegistrations])
        let valid = [
            try Request.fullSnapshot.frame.bytes, try Request.snapshot(recipientsOf: ["x"]).frame.bytes,
            try Request.resetStatistics.frame.bytes, try Request.judge(overrides).frame.bytes,
            try Request.includeRuleFacts.frame.bytes,
            try Request.factsToJudge(RuleFacts.Floors(livingCountedAbove: .min, growthFloor: .max)).frame.bytes,
            try Request.factsToJudge(RuleFacts.Floors(livingCountedAbove: .max, growthFloor: .min)).frame.bytes,
        ]
        var peers: [RawPeer] = []
        underAttack(
            "fuzz", app: app,
            attack: {
                for round in 0..<300 {
                    guard let peer = RawPeer(path: app.agent.socketPath) else { continue }
                    peer.makeNonBlocking()
                    var bytes: [UInt8] = []
                    for _ in 0..<Int(random.next() % 8) {
                        switch random.next() % 4 {
                        case 0: bytes += valid[Int(random.next() % UInt64(valid.count))]
                        case 1:
                            bytes += (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                        case 2:
                            var frame = valid[Int(random.next() % UInt64(valid.count))]
                            frame[Int(random.next() % UInt64(frame.count))] = UInt8(truncatingIfNeeded: random.next())
                            bytes += frame
                        default: bytes += [0, 0, UInt8(truncatingIfNeeded: random.next()), 1, 3]
                        }
                    }
                    _ = peer.trySend(bytes)
                    // Some go away at once, some stay silent, some stay and never read.
                    if round % 3 != 0 { peers.append(peer) }
                    if peers.count > 8 { peers.removeFirst() }
                }
                peers.removeAll()
            }, until: { app.agent.viewerCount == 0 })
        let client = try AgentClient.connect(to: .socket(app.agent.socketPath))
        client.send(.snapshot(recipientsOf: []))
        #expect(client.waitForSnapshot(after: 0, timeout: 10) != nil)
        client.close()
    }
}

/// A seeded generator, so that a failing fuzz round can be run again.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Seconds on the monotonic clock.
enum MonotonicNow {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
