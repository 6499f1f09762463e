import Foundation
import Glibc
import PonyExpress
import PonyExpressAgent
import PonyExpressMonitor
import PonyExpressWire
import PonyTestSupport
import Testing

@Suite("the agent", .serialized, .tags(.concurrency))
struct MonitorAgentTests {
    struct Ping: Mail {}

    func mode(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode & 0o777
    }

    @Test("serves snapshots over a socket of mode 0600 in a directory of mode 0700, and removes it on stop")
    func servesSnapshots() throws {
        let directory = temporaryRuntimeDirectory() + "/ponytop"
        let office = PostOffice()
        let agent = try MonitorAgent.start(watching: office, runtimeDirectory: directory)
        #expect(mode(directory) == 0o700)
        #expect(mode(agent.socketPath) == 0o600)
        #expect(agent.socketPath.hasPrefix(directory + "/\(getpid())."))
        office.register { (_: Ping) in }
        for _ in 0..<5 { office.post(Ping()) }

        let client = try AgentClient.connect(to: .pid(getpid()), directory: RuntimeDirectory(path: directory))
        #expect(client.hello.pid == getpid())
        #expect(client.hello.libraryVersion == MonitorAgent.libraryVersion)
        client.send(.snapshot(recipientsOf: [String(reflecting: Ping.self)]))
        let frame = try #require(client.waitForSnapshot(after: 0, timeout: 10))
        let ping = try #require(frame.snapshot.mailTypes.first { $0.mailType.name == "Ping" })
        #expect(ping.posts == 5)
        #expect(frame.snapshot.recipients(of: ping.mailType).count == 1)

        // A viewer's reset is its own findings': the app's counters are every consumer's.
        client.send(.resetStatistics)
        client.send(.snapshot(recipientsOf: []))
        let reset = try #require(client.waitForSnapshot(after: 1, timeout: 10))
        #expect(reset.snapshot.totals.posts == 5)
        client.close()

        agent.stop()
        #expect(access(agent.socketPath, F_OK) != 0)
        agent.stop()
    }

    @Test("each viewer is judged with its own rules and memory; one viewer's reset moves nothing another sees")
    func viewersJudgeForThemselves() throws {
        let directory = temporaryRuntimeDirectory()
        let office = PostOffice()
        var settings = MonitorSettings()
        settings.oversubscriptionThreshold = 2
        let agent = try MonitorAgent.start(watching: office, settings: settings, runtimeDirectory: directory)
        defer { agent.stop() }
        for _ in 0..<3 { office.register { (_: Ping) in } }
        for _ in 0..<4 { office.post(Ping()) }
        let address = AgentAddress.pid(getpid())
        let plain = try AgentClient.connect(to: address, directory: RuntimeDirectory(path: directory))
        let lenient = try AgentClient.connect(to: address, directory: RuntimeDirectory(path: directory))
        defer {
            plain.close()
            lenient.close()
        }
        #expect(lenient.agentMinor >= 6)
        var overrides = RuleOverrides()
        try overrides.set("oversubscribed.threshold", to: 10)
        lenient.send(.judge(overrides))

        var count = (plain: 0, lenient: 0)
        func next(_ client: AgentClient, _ seen: inout Int) throws -> MonitorSnapshot {
            client.send(.snapshot(recipientsOf: []))
            let frame = try #require(client.waitForSnapshot(after: seen, timeout: 10))
            seen += 1
            return frame.snapshot
        }
        let before = try next(plain, &count.plain)
        #expect(before.findings.map(\.kind) == [.oversubscribed])
        #expect(before.ruleFacts == nil, "only a viewer that asks is sent the rule facts")
        #expect(try next(lenient, &count.lenient).findings.isEmpty)
        // The lenient viewer asks for the facts (1.7) and judges them itself, with the app's stricter threshold.
        lenient.send(.includeRuleFacts)
        let facts = try #require(try next(lenient, &count.lenient).ruleFacts)
        let strict = FindingJudge(judgingFactsWith: settings)
        try strict.validate(for: facts)
        #expect(strict.judge(facts).map(\.explanation) == before.findings.map(\.explanation))
        // The lenient viewer resets: its own findings only. The other keeps its first sighting and the counts.
        lenient.send(.resetStatistics)
        #expect(try next(lenient, &count.lenient).totals.posts == 4)
        let after = try next(plain, &count.plain)
        #expect(after.totals.posts == 4)
        #expect(after.findings.first?.firstSeen == before.findings.first?.firstSeen)

        // Rules the app cannot judge with end that viewer's session with one line naming the parameter.
        let refused = try AgentClient.connect(to: address, directory: RuntimeDirectory(path: directory))
        defer { refused.close() }
        var longWindow = RuleOverrides()
        try longWindow.set("stalledQueue.window", to: 600)
        refused.send(.judge(longWindow))
        refused.send(.snapshot(recipientsOf: []))
        #expect(refused.waitForSnapshot(after: 0, timeout: 10) == nil)
        #expect(
            refused.closedReason
                == "this app cannot judge with the viewer's rules: stalledQueue.window = 600: expected at most 60 s, "
                + "the history this app's monitor keeps (its MonitorSettings.historyLength)")
    }

    @Test("a viewer of 1.9 judges the facts itself: the agent gathers them for its floors and judges nothing for it")
    func viewerJudgesFacts() throws {
        let directory = temporaryRuntimeDirectory()
        let office = PostOffice()
        var settings = MonitorSettings()
        settings.oversubscriptionThreshold = 2
        let agent = try MonitorAgent.start(watching: office, settings: settings, runtimeDirectory: directory)
        defer { agent.stop() }
        for _ in 0..<3 { office.register { (_: Ping) in } }
        for _ in 0..<4 { office.post(Ping()) }
        let client = try AgentClient.connect(to: .pid(getpid()), directory: RuntimeDirectory(path: directory))
        defer { client.close() }
        #expect(client.agentMinor >= 9)
        // The hello names the app's rules, which the viewer's own go over.
        #expect(client.hello.appRules == settings.ruleChanges)
        #expect(client.hello.appRules?.parameters == ["oversubscribed.threshold": 2])
        let viewerSettings = try MonitorSettings(
            appRules: try #require(client.hello.appRules), overriddenBy: RuleOverrides())
        let judge = FindingJudge(judgingFactsWith: viewerSettings)

        client.send(.factsToJudge(judge.floors))
        var seen = 0
        func next() throws -> MonitorSnapshot {
            client.send(.snapshot(recipientsOf: []))
            let frame = try #require(client.waitForSnapshot(after: seen, timeout: 10))
            seen += 1
            return frame.snapshot
        }
        let first = try next()
        #expect(first.findings.isEmpty, "the agent judges nothing for a viewer that judges itself")
        let facts = try #require(first.ruleFacts)
        try judge.validate(for: facts)
        #expect(judge.judge(facts).map(\.kind) == [.oversubscribed])
        // Facts for higher floors leave out what only a lower threshold reads.
        client.send(.factsToJudge(RuleFacts.Floors(livingCountedAbove: 10, growthFloor: 8)))
        let higher = try #require(try next().ruleFacts)
        #expect(FindingJudge(judgingFactsWith: settings).judge(higher).isEmpty)
        #expect(throws: MonitorSettingsError.self) { try judge.validate(for: higher) }
        // Taking those snapshots noted no sighting in the app: its own judge first sees the finding now, not when
        // the viewer did.
        let last = try next()
        let own = agent.monitor.snapshot()
        #expect(own.findings.map(\.kind) == [.oversubscribed])
        #expect(try #require(own.findings.first).firstSeen > last.time)
    }

    @Test("a TCP listener on loopback serves the same")
    func tcp() throws {
        let directory = temporaryRuntimeDirectory()
        let agent = try MonitorAgent.start(
            watching: PostOffice(), tcp: .loopback(port: 0), runtimeDirectory: directory)
        let port = try #require(agent.tcpPort)
        let client = try AgentClient.connect(to: .tcp(host: "127.0.0.1", port: port))
        #expect(client.hello.pid == getpid())
        client.send(.snapshot(recipientsOf: []))
        #expect(client.waitForSnapshot(after: 0, timeout: 10) != nil)
        client.close()
        agent.stop()
    }

    @Test(
        "TCP beyond loopback is refused in one line before anything opens: the agent's TCP has no authentication",
        arguments: ["0.0.0.0", "10.1.2.3", "::", "example.com", "127.0.0.256"])
    func tcpBeyondLoopback(_ host: String) throws {
        let directory = temporaryRuntimeDirectory()
        let listener = TCPListener(host: host, port: 0)
        #expect(!listener.isLoopback)
        #expect {
            _ = try MonitorAgent.start(watching: PostOffice(), tcp: listener, runtimeDirectory: directory)
        } throws: { error in
            let text = "\(error)"
            return text.contains("TCP on \(host) is beyond loopback") && !text.contains("\n")
        }
        // Refused before the socket was made: nothing of the app is reachable.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("loopback addresses are loopback", arguments: ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"])
    func loopbackHosts(_ host: String) {
        #expect(TCPListener(host: host, port: 0).isLoopback)
    }

    @Test("a directory others can enter is refused")
    func unsafeDirectory() throws {
        let directory = temporaryRuntimeDirectory()
        chmod(directory, 0o755)
        #expect(throws: AgentError.self) {
            try MonitorAgent.start(watching: PostOffice(), runtimeDirectory: directory)
        }
    }

    @Test("a socket left by a process that is gone is removed when an agent starts")
    func staleSocket() throws {
        let directory = temporaryRuntimeDirectory()
        let stale = directory + "/2147483646.crashed.sock"
        close(open(stale, O_CREAT | O_WRONLY, 0o600))
        let agent = try MonitorAgent.start(watching: PostOffice(), runtimeDirectory: directory)
        #expect(access(stale, F_OK) != 0)
        #expect(RuntimeDirectory(path: directory).sockets().map(\.pid) == [getpid()])
        agent.stop()
    }

    @Test("a socket is left behind only when its pid is gone or belongs to a process younger than the socket")
    func leftBehind() throws {
        let directory = temporaryRuntimeDirectory()
        let path = directory + "/\(getpid()).live.sock"
        close(open(path, O_CREAT | O_WRONLY, 0o600))
        let socket = try #require(RuntimeDirectory(path: directory).sockets().first)
        #expect(!socket.isLeftBehind, "this process is alive and older than the socket it just made")
        // A socket made an hour before this process started: its pid now belongs to a later process.
        var times = [timeval(tv_sec: time(nil) - 3_600, tv_usec: 0), timeval(tv_sec: time(nil) - 3_600, tv_usec: 0)]
        #expect(utimes(path, &times) == 0)
        #expect(socket.isLeftBehind)
        let gone = AgentSocket(directory: directory, fileName: "2147483646.gone.sock")
        #expect(gone?.isLeftBehind == true)
    }

    @Test("an app that accepts but never says hello (stopped, busy) is reported as not answering, with the time")
    func helloTimeout() throws {
        let directory = temporaryRuntimeDirectory()
        let path = directory + "/1.stopped.sock"
        // A listening socket nobody accepts on: what a stopped app's socket looks like to a viewer.
        let fd = try listeningUnixSocket(at: path)
        defer { close(fd) }
        #expect(
            throws: AgentClientError.notAnswering(
                "\(path) did not answer within 0.5 s: the app is stopped (a debugger?) or too busy")
        ) {
            try AgentClient.connect(to: .socket(path), timeout: 0.5)
        }
        // Starting another agent in the directory leaves the live app's socket alone.
        let agent = try MonitorAgent.start(watching: PostOffice(), runtimeDirectory: directory)
        #expect(access(path, F_OK) == 0)
        agent.stop()
    }

    @Test("garbage, an oversized frame and a frame of the wrong kind end that peer's session with a reason")
    func badPeers() throws {
        let directory = temporaryRuntimeDirectory()
        let agent = try MonitorAgent.start(watching: PostOffice(), runtimeDirectory: directory)
        let cases: [(bytes: [UInt8], reason: String)] = [
            ([0x7f, 0xff, 0xff, 0xff], "exceeds the 16 MiB limit"),
            ([0, 0, 0, 2, 0x42, 0x42], "unknown frame kind 66"),
            (try Hello(pid: 1, processName: "x", startedAt: 0).frame().bytes, "accepts requests only"),
            (Frame(kind: .request, payload: [0xff, 0xff]).bytes, "malformed data"),
        ]
        for (bytes, reason) in cases {
            let peer = try #require(RawPeer(path: agent.socketPath))
            peer.send(bytes)
            let reply = peer.readToEnd()
            let text = String(decoding: reply, as: UTF8.self)
            #expect(text.contains(reason), "sent \(bytes.prefix(8)), got \(text)")
        }
        // The agent still serves a good viewer.
        let client = try AgentClient.connect(to: .socket(agent.socketPath))
        client.send(.snapshot(recipientsOf: []))
        #expect(client.waitForSnapshot(after: 0, timeout: 10) != nil)
        client.close()
        agent.stop()
    }
}
