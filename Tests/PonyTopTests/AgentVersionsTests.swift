import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ponytop --attach` against agents of each protocol a viewer must meet: one of 1.9 or later sends the rule facts
/// and the viewer judges them itself; one of 1.6 to 1.8 judges on the viewer's behalf, with the rules it sends; one
/// that lies about what it sends is refused in one line.
@Suite(
    "ponytop and agents of other versions", .blocksItsThread, .serialized,
    .enabled(if: PonyTopBinary.exists, "ponytop was not built"))
struct AgentVersionsTests {
    struct Crowded: Mail {}

    /// A post office with three recipients of one mail type, watched by a monitor whose rules find more than two
    /// oversubscription: what the scripted agents serve.
    final class App: Sendable {
        let office = PostOffice()
        let monitor: PostOfficeMonitor

        init() {
            var settings = MonitorSettings()
            settings.oversubscriptionThreshold = 2
            monitor = PostOfficeMonitor(settings: settings)
            monitor.attach(to: office)
            for _ in 0..<3 { office.register { (_: Crowded) in } }
            office.post(Crowded())
        }
    }

    private static func run(_ agent: ScriptedAgent, _ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(
            [PonyTopBinary.path, "--attach", agent.path, "--report", "text", "--duration", "1"] + arguments,
            timeout: 60)
    }

    @Test("an agent of 1.9 sends facts and the viewer judges them with the app's rules and its own over them")
    func viewerJudges() throws {
        let app = App()
        let agent = try ScriptedAgent(minor: 9, app: app)
        defer { agent.stop() }
        let result = try Self.run(agent, ["--rule-setting", "oversubscribed.threshold=1"])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output.contains("Crowded has 3 live recipients, more than the threshold of 1"), "\(result.output)")
        #expect(agent.requests.contains { if case .factsToJudge = $0 { true } else { false } })
        #expect(!agent.requests.contains { if case .judge = $0 { true } else { false } })
        // Without options the app's rules (its threshold of 2, from the hello) judge.
        let plain = try Self.run(agent, [])
        #expect(plain.output.contains("more than the threshold of 2"), "\(plain.output)")
    }

    @Test(
        "r attached forgets this viewer's findings: without a word to an agent of 1.9, by asking one of 1.8",
        .enabled(if: TmuxSession.isAvailable, "tmux is not installed"), arguments: [9, 8])
    func resetIsTheViewers(minor: Int) throws {
        let app = App()
        let agent = try ScriptedAgent(minor: minor, app: app)
        defer { agent.stop() }
        let tmux = try TmuxSession([PonyTopBinary.path, "--attach", agent.path], width: 80, height: 24)
        defer { tmux.close() }
        #expect(tmux.waitFor("findings 1"), "\(tmux.transcript())")
        tmux.sendKeys("r", "y")
        #expect(tmux.waitFor("this viewer's findings forgotten"), "\(tmux.transcript())")
        tmux.sendKeys("q")
        #expect(tmux.waitForExit() == 0)
        let resets = agent.requests.filter { $0 == .resetStatistics }.count
        #expect(resets == (minor >= 9 ? 0 : 1), "\(agent.requests)")
    }

    @Test("an agent of 1.8 is sent the viewer's rules and its findings are shown as it judged them")
    func agentJudges() throws {
        let app = App()
        let agent = try ScriptedAgent(minor: 8, app: app)
        defer { agent.stop() }
        let result = try Self.run(agent, ["--rule-setting", "oversubscribed.threshold=1"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("more than the threshold of 1"), "\(result.output)")
        #expect(agent.requests.contains { if case .judge = $0 { true } else { false } })
        #expect(!agent.requests.contains { if case .factsToJudge = $0 { true } else { false } })
    }

    @Test("an agent of 1.9 that sends no facts, rules out of range or facts the viewer's rules cannot judge: one line")
    func lyingAgent() throws {
        let app = App()
        let silent = try ScriptedAgent(minor: 9, app: app, withholdsFacts: true)
        defer { silent.stop() }
        let result = try Self.run(silent, [])
        #expect(result.status == 2)
        #expect(
            result.error
                == "ponytop: --attach: \(silent.path): the agent sent a snapshot without the rule facts this viewer "
                + "judges\n")
        // Rules the app's hello names that this viewer does not know (a newer app's) are its own business; a known
        // one out of range is refused.
        var lying = RuleOverrides()
        lying.disabled = ["aRuleOfANewerApp"]
        lying.parameters = ["aRuleOfANewerApp.threshold": 3, "oversubscribed.threshold": -5]
        let liar = try ScriptedAgent(minor: 9, app: app, appRules: lying)
        defer { liar.stop() }
        let unreadable = try Self.run(liar, [])
        #expect(unreadable.status == 2)
        #expect(
            unreadable.error
                == "ponytop: --attach: \(liar.path): the app's rules cannot be read: oversubscribed.threshold = -5: "
                + "expected a whole number from 1 to 100000000\n", "\(unreadable.error)")
        let agent = try ScriptedAgent(minor: 9, app: app)
        defer { agent.stop() }
        let refused = try Self.run(agent, ["--rule-setting", "stalledQueue.window=600"])
        #expect(refused.status == 2)
        #expect(
            refused.error
                == "ponytop: --attach: \(agent.path): the viewer's rules cannot judge this app: stalledQueue.window = "
                + "600: expected at most 60 s, the history the app's monitor kept (its historyLength)\n")
    }
}

/// A Unix socket that speaks the agent's side of one protocol version for `app`, one connection at a time, and
/// keeps the requests it read: an agent of another version, as a viewer meets it.
final class ScriptedAgent: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let minor: Int
    private let app: AgentVersionsTests.App
    private let withholdsFacts: Bool
    private let appRules: RuleOverrides?
    private let received = NSLock()
    private var requestsRead: [Request] = []

    var requests: [Request] { received.withLock { requestsRead } }

    init(
        minor: Int, app: AgentVersionsTests.App, withholdsFacts: Bool = false, appRules: RuleOverrides? = nil
    ) throws {
        self.appRules = appRules
        self.minor = minor
        self.app = app
        self.withholdsFacts = withholdsFacts
        var template = Array("/tmp/ponytop-scripted-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) } + "/agent.sock"
        fd = try listeningUnixSocket(at: path)
        let listener = fd
        Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                serve(client)
                close(client)
            }
        }.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        unlink(path)
    }

    /// One viewer's session: the hello, then each request read, answered as an agent of `minor` would.
    private func serve(_ client: Int32) {
        let hello = Hello(
            pid: 4242, processName: "scripted", startedAt: 1, quietViewerBound: 10,
            appRules: minor >= 9 ? appRules ?? app.monitor.settings.ruleChanges : nil)
        guard let helloFrame = try? hello.frame(minor: minor), send(helloFrame, to: client) else { return }
        var judge = app.monitor.makeJudge()
        var floors: RuleFacts.Floors?
        while let frame = readFrame(client), let request = try? WireDecoder.decode(Request.self, from: frame.payload) {
            received.withLock { requestsRead.append(request) }
            switch request {
            case .judge(let overrides):
                guard let made = try? app.monitor.makeJudge(overriding: overrides) else { return }
                judge = made
            case .factsToJudge(let asked):
                // An agent of 1.8 cannot read this request: it ends the session.
                guard minor >= 9 else { return }
                floors = asked
            case .snapshot, .fullSnapshot:
                var snapshot =
                    floors.map { app.monitor.unjudgedSnapshot(keepingRecipientsOf: { _ in true }, factsFor: $0) }
                    ?? app.monitor.snapshot(keepingRecipientsOf: { _ in true }, judgedBy: judge)
                if withholdsFacts || floors == nil { snapshot.dropRuleFacts() }
                guard let reply = try? SnapshotFrame(takenAt: Date().timeIntervalSince1970, snapshot: snapshot).frame,
                    send(reply, to: client)
                else { return }
            case .resetStatistics, .keepAlive, .includeRuleFacts:
                break
            }
        }
    }

    private func send(_ frame: Frame, to client: Int32) -> Bool {
        let bytes = frame.bytes
        return bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) } == bytes.count
    }

    private func readFrame(_ client: Int32) -> Frame? {
        guard let header = readFully(client, count: Frame.headerLength),
            let length = try? Frame.bodyLength(header), let body = readFully(client, count: length)
        else { return nil }
        return try? Frame(body: body)
    }

    private func readFully(_ client: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes { recv(client, $0.baseAddress! + done, count - done, 0) }
            guard read > 0 else { return nil }
            done += read
        }
        return bytes
    }
}
