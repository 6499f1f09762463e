import PonyExpress
import PonyExpressAgent
import PonyExpressMonitor
import PonyExpressWire
import PonyTopReport
import PonyTopUI

/// An app's post office, seen through its agent. Snapshots arrive on NIO's event loop; ``poll()`` takes them in.
/// When the connection drops, the last snapshot stays and the source reconnects: to the same address, or, for an
/// app known by pid, to the next agent of a process with the same name (a restarted app has a new pid).
final class AttachedSource: SnapshotSource {
    private let address: AgentAddress
    private let directory = RuntimeDirectory()
    private var client: AgentClient?
    private var hello: Hello
    /// The minor protocol version of the agent last connected.
    private var agentMinor: Int
    private var seen = 0
    private var recorder: RecordingWriter?
    private var lastAttempt: UInt64 = 0
    private var lostReason: String?
    private var notice = Notice()
    private var recipientsOf: [String] = []
    /// The viewer's rules over the app's: sent after each connect, so that the agent judges this viewer's findings
    /// with them and a memory of this viewer's own.
    private let overrides: RuleOverrides
    /// When the last request went to the agent: a keep-alive is due ``AgentClient/keepAliveInterval`` after it.
    private var lastRequest: UInt64 = 0
    private(set) var snapshot: MonitorSnapshot

    /// Connects, sends the viewer's rules, and waits for the first snapshot.
    ///
    /// - Parameters:
    ///   - address: The app.
    ///   - overrides: `--allow`, `--warn`, `--rule-setting` and the config file's rules, over the app's.
    ///   - record: The `--record` file, if any.
    ///   - overwrite: Whether `--record` may replace a file.
    /// - Throws: ``AgentClientError`` when the app cannot be reached, refuses, or cannot judge with `overrides`
    ///   (an agent before protocol 1.6 judges with the app's rules only), `WireError` when the recording cannot be
    ///   created.
    init(address: AgentAddress, overrides: RuleOverrides, record: String?, overwrite: Bool = false) throws {
        self.address = address
        self.overrides = overrides
        let client = try AgentClient.connect(to: address, directory: directory)
        self.client = client
        hello = client.hello
        agentMinor = client.agentMinor
        if let problem = Self.send(overrides, to: client) {
            client.close()
            throw AgentClientError.rejected("\(address): \(problem)")
        }
        if record != nil { Self.askForRuleFacts(client) }
        client.send(.snapshot(recipientsOf: []))
        lastRequest = MonotonicClock.now()
        guard let first = client.waitForSnapshot(after: 0, timeout: 10) else {
            client.close()
            throw AgentClientError.unreachable(
                "\(address): \(client.closedReason ?? "no snapshot within 10 s")")
        }
        seen = client.latest.count
        snapshot = first.snapshot
        recorder = try record.map { try RecordingWriter(path: $0, hello: client.hello, overwrite: overwrite) }
        try recorder?.append(first)
    }

    var status: SourceStatus {
        var status = SourceStatus(
            title: "\(hello.processName) pid \(hello.pid)",
            warning: lostReason.map { _ in "DISCONNECTED, reconnecting" },
            notice: notice.current ?? lostReason)
        status.resetScope = agentMinor >= 6 ? .viewerFindings : .appForEveryViewer
        status.isRecording = recorder != nil
        return status
    }

    var reportSource: Report.Source { Report.Source(kind: .attached, name: hello.processName, pid: hello.pid) }

    func start() {}

    func refresh(recipientsOf mailType: TypeIdentity?) {
        recipientsOf = recipientTypes(showing: mailType).map(\.qualifiedName)
        guard let client else {
            reconnect()
            return
        }
        client.send(.snapshot(recipientsOf: recipientsOf))
        lastRequest = MonotonicClock.now()
    }

    /// A paused display asks for nothing: without a word now and then, the agent would count this viewer quiet and
    /// give its slot to a newcomer when all are taken (`MonitorAgent.Limits.quietViewerBound`). An agent before
    /// protocol 1.3 reads no keep-alive: there the slot is kept only while nobody needs it, and a lost one is taken
    /// again on resume.
    func keepAlive() {
        guard let client, let interval = client.keepAliveInterval else { return }
        let now = MonotonicClock.now()
        guard now &- lastRequest >= UInt64(interval * 1e9) else { return }
        client.send(.keepAlive)
        lastRequest = now
    }

    func poll() -> Bool {
        guard let client else { return false }
        let latest = client.latest
        if latest.count > seen, let frame = latest.frame {
            seen = latest.count
            snapshot = frame.snapshot
            record(frame)
            return true
        }
        if let reason = client.closedReason {
            lostReason = reason
            self.client = nil
            client.close()
            return true
        }
        return false
    }

    func perform(_ effect: Effect) {
        switch effect {
        case .toggleScenarioPause:
            notice.show("P pauses ponytop's own scenario; it does not apply to an attached app")
        case .resetStatistics:
            client?.send(.resetStatistics)
            client?.send(.snapshot(recipientsOf: recipientsOf))
        case .replayStep, .replaySeek:
            notice.show("replay keys work with --replay only")
        case .none, .quit:
            break
        }
    }

    func finalSnapshot() -> MonitorSnapshot {
        guard let client else { return snapshot }
        let count = client.latest.count
        client.send(.fullSnapshot)
        if let frame = client.waitForSnapshot(after: count, timeout: 10) {
            seen = client.latest.count
            snapshot = frame.snapshot
            record(frame)
        }
        return snapshot
    }

    func stop() {
        client?.close()
        client = nil
    }

    /// Why the app could not be reached, if it is gone (for a headless run, which does not wait).
    var connectionProblem: String? { lostReason }

    /// Tries to reach the app again, at most once a second.
    private func reconnect() {
        let now = MonotonicClock.now()
        guard now - lastAttempt >= 1_000_000_000 else { return }
        lastAttempt = now
        var candidates = [address]
        if case .pid = address {
            candidates += directory.sockets().filter { $0.processName == hello.processName && $0.pid != hello.pid }
                .sorted { $0.pid > $1.pid }.map { .socket($0.path) }
        }
        for candidate in candidates {
            guard let client = try? AgentClient.connect(to: candidate, directory: directory, timeout: 0.5) else {
                continue
            }
            if let problem = Self.send(overrides, to: client) {
                client.close()
                lostReason = "\(candidate): \(problem)"
                continue
            }
            self.client = client
            seen = 0
            // Another app (a new process of the same name) is not the recording's: it stops.
            if client.hello != hello { recorder = nil }
            if recorder != nil { Self.askForRuleFacts(client) }
            hello = client.hello
            agentMinor = client.agentMinor
            lostReason = nil
            notice.show("reconnected")
            client.send(.snapshot(recipientsOf: recipientsOf))
            lastRequest = MonotonicClock.now()
            return
        }
    }

    /// Asks the agent to judge with `overrides`, if there are any; says why it cannot when the agent is too old to.
    private static func send(_ overrides: RuleOverrides, to client: AgentClient) -> String? {
        guard !overrides.isEmpty else { return nil }
        guard client.agentMinor >= 6 else {
            return "its agent speaks protocol \(WireVersion.major).\(client.agentMinor), "
                + "which judges with the app's own rules; --allow, --warn, --rule-setting and the config file's "
                + "rules need 1.6 or later: update PonyExpress in the app, or drop them"
        }
        client.send(.judge(overrides))
        return nil
    }

    /// Asks the agent to send its rule facts with every snapshot, so that the recording can be judged again with other
    /// thresholds (`--replay --rule-setting`). An agent before protocol 1.7 has none to send: its recording replays
    /// the findings it judged.
    private static func askForRuleFacts(_ client: AgentClient) {
        guard client.agentMinor >= 7 else { return }
        client.send(.includeRuleFacts)
    }

    private func record(_ frame: SnapshotFrame) {
        guard let recorder else { return }
        do {
            try recorder.append(frame)
        } catch {
            self.recorder = nil
            notice.show("recording stopped: \(error)", seconds: 10)
        }
    }
}
