import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
import PonyScenarios
import PonyTopUI

/// A post office under load in ponytop's own process: the scenario runner posts on its own threads, the monitor
/// counts, and the session takes immutable snapshots from them.
final class ScenarioSource: SnapshotSource {
    let scenario: Scenario
    let office = PostOffice()
    let monitor: PostOfficeMonitor
    let runner: ScenarioRunner
    private let recorder: RecordingWriter?
    private(set) var snapshot: MonitorSnapshot
    var notice = Notice()
    private var progress: ScenarioProgress

    /// Creates the source.
    ///
    /// - Parameters:
    ///   - settings: The monitor's settings (command line and config file).
    ///   - record: The `--record` file, if any.
    ///   - overwrite: Whether `record` may replace an existing file (`--force`).
    /// - Throws: When the recording cannot be created.
    init(
        scenario: Scenario, rate: Double, seed: UInt64, settings: MonitorSettings, record: String?,
        overwrite: Bool = false
    ) throws {
        self.scenario = scenario
        let monitor = PostOfficeMonitor(settings: settings)
        self.monitor = monitor
        runner = ScenarioRunner(scenario: scenario, office: office, rate: rate, seed: seed)
        monitor.attach(to: office)
        snapshot = monitor.snapshot(keepingRecipientsOf: { _ in true }, factsInFull: record != nil)
        progress = runner.progress
        recorder = try record.map {
            try RecordingWriter(
                path: $0,
                hello: Hello(
                    pid: getpid(), processName: "scenario \(scenario.name)", startedAt: WallClock.now(),
                    appRules: monitor.settings.ruleChanges),
                overwrite: overwrite)
        }
    }

    var status: SourceStatus {
        var status = SourceStatus(name: scenario.name, progress: progress)
        status.notice = notice.current
        status.isRecording = recorder != nil
        return status
    }

    var origin: SourceOrigin { SourceOrigin(kind: .scenario, name: scenario.name) }

    func start() {
        // The recording starts with the run: its first snapshot counts nothing yet, so that a report of the
        // recording covers the whole run, as the run's own report does.
        record(recipientsOf: nil)
        runner.start()
    }

    func refresh(recipientsOf mailType: TypeIdentity?) {
        snapshot = takeSnapshot()
        progress = runner.progress
        record(recipientsOf: mailType)
    }

    func poll() -> Bool { false }

    func carryOut(_ effect: Effect) -> Bool {
        switch effect {
        case .toggleScenarioPause:
            if runner.isPaused { runner.resume() } else { runner.pause() }
            progress = runner.progress
        case .resetStatistics:
            monitor.reset()
            refresh(recipientsOf: nil)
        default:
            return false
        }
        return true
    }

    /// A fresh snapshot, recorded whole: a replay's report of the end state needs every recipient.
    func finalSnapshot() -> MonitorSnapshot {
        snapshot = takeSnapshot()
        progress = runner.progress
        record(recipientsOf: nil, whole: true)
        return snapshot
    }

    /// Stops posting (within a second) and detaches the monitor.
    func stop() {
        runner.stop()
        monitor.detach()
    }

    /// The monitor's snapshot, with rule facts that serve any threshold when recording: a replay judges them again.
    private func takeSnapshot() -> MonitorSnapshot {
        monitor.snapshot(keepingRecipientsOf: { _ in true }, factsInFull: recorder != nil)
    }

    /// Records the snapshot as an agent would send it: with the recipients of the shown mail type only.
    private func record(recipientsOf mailType: TypeIdentity?, whole: Bool = false) {
        guard let recorder else { return }
        var recorded = snapshot
        if !whole { recorded.keepRecipients(of: recipientTypes(showing: mailType)) }
        do {
            try recorder.append(SnapshotFrame(takenAt: WallClock.now(), snapshot: recorded))
        } catch {
            notice.show("recording stopped: \(error)", seconds: 10)
        }
    }
}

extension SourceStatus {
    /// The status of a running scenario.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - progress: The runner's progress.
    init(name: String, progress: ScenarioProgress) {
        self.init(
            name: name, phase: progress.phaseName, phaseIndex: progress.phaseIndex, phaseCount: progress.phaseCount,
            isPaused: progress.isPaused, isFinished: progress.isFinished)
    }
}
