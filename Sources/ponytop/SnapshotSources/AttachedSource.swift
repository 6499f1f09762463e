import PonyExpress
import PonyExpressAgent
import PonyExpressMonitor
import PonyExpressWire
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
    var notice = Notice()
    private var recipientsOf: [String] = []
    /// The viewer's rules over the app's: this viewer judges the app's facts with them (an agent of protocol 1.9 or
    /// later), or the agent judges with them on its behalf (1.6 to 1.8).
    private let overrides: RuleOverrides
    /// This viewer's judge of the app's rule facts, with the app's rules and the viewer's over them and a memory of
    /// its own; `nil` while the agent judges (an agent before 1.9).
    private var judge: FactsJudge?
    /// When the last request went to the agent: a keep-alive is due ``AgentClient/keepAliveInterval`` after it.
    private var lastRequest: UInt64 = 0
    private(set) var snapshot: MonitorSnapshot
    /// Whether the next snapshot's facts must be checked against this viewer's rules: the first from another app.
    private var validatePending = false

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
        let first: SnapshotFrame
        do {
            judge = try Self.start(client, overrides: overrides, recording: record != nil)
            lastRequest = MonotonicClock.now()
            guard let received = client.waitForSnapshot(after: 0, timeout: 10) else {
                throw AgentClientError.unreachable(
                    "\(address): \(client.closedReason ?? "no snapshot within 10 s")")
            }
            first = try Self.judged(received, by: judge, keepingFacts: record != nil, validating: true)
        } catch let error as AgentClientError {
            client.close()
            throw error
        } catch {
            client.close()
            throw AgentClientError.rejected("\(address): \(error)")
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

    var origin: SourceOrigin { SourceOrigin(kind: .attached, name: hello.processName, pid: hello.pid) }

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
        if latest.count > seen, let received = latest.frame {
            seen = latest.count
            take(received)
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

    func carryOut(_ effect: Effect) -> Bool {
        guard effect == .resetStatistics else { return false }
        // This viewer's findings only: its own judge's, or (before 1.9) the one the agent keeps for it.
        if let judge { judge.reset() } else { client?.send(.resetStatistics) }
        client?.send(.snapshot(recipientsOf: recipientsOf))
        return true
    }

    func finalSnapshot() -> MonitorSnapshot {
        guard let client else { return snapshot }
        let count = client.latest.count
        client.send(.fullSnapshot)
        if let received = client.waitForSnapshot(after: count, timeout: 10) {
            seen = client.latest.count
            take(received)
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
            // Another app (a new process of the same name) is not the recording's: it stops, and its findings are
            // judged afresh. The same app's are judged on by the same judge, which says what it missed meanwhile.
            let sameApp = client.hello == hello
            let recording = sameApp && recorder != nil
            do {
                let started = try Self.start(
                    client, overrides: overrides, recording: recording, recipientsOf: recipientsOf)
                if !sameApp || (started == nil) != (judge == nil) { judge = started }
                validatePending = !sameApp
            } catch {
                client.close()
                lostReason = "\(candidate): \(error)"
                continue
            }
            self.client = client
            seen = 0
            if !recording { recorder = nil }
            hello = client.hello
            agentMinor = client.agentMinor
            lostReason = nil
            notice.show("reconnected")
            lastRequest = MonotonicClock.now()
            return
        }
    }

    /// Starts a session: asks an agent of 1.9 or later for the rule facts this viewer's judge needs and returns the
    /// judge (the app's rules from the hello, `overrides` over them); asks an older one to judge with `overrides`
    /// itself, and to send its rule facts when `recording`, and returns `nil`. Then asks for the first snapshot.
    ///
    /// - Throws: A one-line reason when the rules cannot judge this app.
    private static func start(
        _ client: AgentClient, overrides: RuleOverrides, recording: Bool, recipientsOf: [String] = []
    ) throws -> FactsJudge? {
        guard client.agentMinor >= 9 else {
            if let problem = send(overrides, to: client) { throw SessionRefusal(problem) }
            if recording { askForRuleFacts(client) }
            client.send(.snapshot(recipientsOf: recipientsOf))
            return nil
        }
        let judge: FactsJudge
        do {
            judge = try FactsJudge(appRules: client.hello.appRules, overriddenBy: overrides)
        } catch {
            throw SessionRefusal("the app's rules cannot be read: \(error.clause)")
        }
        client.send(.factsToJudge(recording ? .any : judge.floors))
        client.send(.snapshot(recipientsOf: recipientsOf))
        return judge
    }

    /// A received snapshot with this viewer's findings: judged by `judge` from its rule facts (checked against the
    /// rules first when `validating`), or as the agent judged them when `judge` is `nil`. Its facts are dropped
    /// unless they are recorded.
    ///
    /// - Throws: A one-line reason when the facts are missing or the rules cannot judge them.
    private static func judged(
        _ received: SnapshotFrame, by judge: FactsJudge?, keepingFacts: Bool, validating: Bool
    ) throws -> SnapshotFrame {
        guard let judge else { return received }
        var frame = received
        guard let facts = frame.snapshot.ruleFacts else {
            throw SessionRefusal("the agent sent a snapshot without the rule facts this viewer judges")
        }
        if validating {
            do {
                try judge.validate(facts)
            } catch {
                throw SessionRefusal("the viewer's rules cannot judge this app: \(error.clause)")
            }
        }
        judge.judge(facts).apply(to: &frame.snapshot)
        if !keepingFacts { frame.snapshot.dropRuleFacts() }
        return frame
    }

    /// Shows (and records) a snapshot received after the first, judged by this viewer; one this viewer cannot judge
    /// ends the session with the reason.
    private func take(_ received: SnapshotFrame) {
        do {
            let frame = try Self.judged(
                received, by: judge, keepingFacts: recorder != nil, validating: validatePending)
            validatePending = false
            snapshot = frame.snapshot
            record(frame)
        } catch {
            lostReason = "\(error)"
            client?.close()
            client = nil
        }
    }

    private struct SessionRefusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
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
