import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
import PonyTopReport
import PonyTopUI

/// A recording played back at the pace it was recorded. `p` pauses, `,` and `.` step one snapshot, `[` and `]` jump
/// a tenth of the recording.
final class ReplaySource: SnapshotSource {
    private let recording: Recording
    private let fileName: String
    private var position = 0
    private var frame: SnapshotFrame
    /// Where the replay clock stood at the last refresh, in recorded seconds, and when that was.
    private var playedTo: Double
    private var lastRefresh: UInt64?
    private var notice = Notice()
    /// The rules `--allow` turned off: their recorded findings are not shown or reported.
    private let disabledRules: Set<Finding.Kind>
    var snapshot: MonitorSnapshot { judged(frame) }

    /// Opens a recording.
    ///
    /// - Parameters:
    ///   - path: The `--replay` file.
    ///   - strict: Refuse a recording that is cut short or damaged anywhere (every frame is decoded first), as a
    ///     report must; otherwise it plays up to the damage and says so.
    ///   - disabledRules: The rules `--allow` turned off (and `--warn` did not turn on again).
    /// - Throws: A one-line description when the file cannot be read, is not a recording, holds no snapshot, or
    ///   (strict) is damaged.
    init(path: String, strict: Bool = false, disabledRules: Set<Finding.Kind> = []) throws {
        self.disabledRules = disabledRules
        recording = try Recording(path: path)
        guard recording.frameCount > 0 else {
            throw recording.damage ?? WireError.malformed("'\(path)' holds no snapshot")
        }
        if strict, let problem = recording.firstProblem() { throw problem }
        fileName = path.split(separator: "/").last.map(String.init) ?? path
        frame = try recording.snapshot(at: 0)
        playedTo = frame.takenAt
        if let damage = recording.damage {
            notice.show("\(damage); it plays to its last whole snapshot", seconds: 5)
        }
    }

    var status: SourceStatus {
        var status = SourceStatus(
            title: "replay \(fileName) \(position + 1)/\(recording.frameCount) of \(recording.hello.processName)",
            notice: notice.current ?? (position == recording.frameCount - 1 ? "END OF RECORDING" : nil))
        status.isReplay = true
        return status
    }

    var reportSource: Report.Source {
        Report.Source(kind: .replay, name: recording.hello.processName, pid: recording.hello.pid)
    }

    func start() {}

    func refresh(recipientsOf mailType: TypeIdentity?) {
        let now = MonotonicClock.now()
        defer { lastRefresh = now }
        guard let lastRefresh else { return }
        playedTo += Double(now - lastRefresh) / 1e9
        // Recordings hold a snapshot per refresh of the recorder: skipping ahead decodes few frames.
        var next = position
        var shown: SnapshotFrame?
        while next + 1 < recording.frameCount, let later = try? recording.snapshot(at: next + 1),
            later.takenAt <= playedTo
        {
            next += 1
            shown = later
        }
        if let shown {
            frame = shown
            position = next
        }
    }

    func poll() -> Bool { false }

    func perform(_ effect: Effect) {
        switch effect {
        case .replayStep(let step):
            show(position + step)
            lastRefresh = nil
        case .replaySeek(let tenths):
            show(position + tenths * max(1, recording.frameCount / 10))
            lastRefresh = nil
        case .toggleScenarioPause:
            notice.show("P pauses a scenario; a replay pauses with p")
        case .resetStatistics:
            notice.show("a replay shows what was recorded; r does not apply")
        case .none, .quit:
            break
        }
    }

    func finalSnapshot() -> MonitorSnapshot {
        show(recording.frameCount - 1)
        return snapshot
    }

    /// Every finding of the recording, snapshot after snapshot: the log a report of the replay judges, as the
    /// recorded run's report did.
    func findingLog() -> FindingLog {
        var log = FindingLog()
        for index in 0..<recording.frameCount {
            if let frame = try? recording.snapshot(at: index) { log.record(judged(frame)) }
        }
        return log
    }

    func stop() {}

    /// The recording's first snapshot: where a report's run begins, its counts the baseline of the totals.
    var firstSnapshot: MonitorSnapshot? {
        (try? recording.snapshot(at: 0)).map(judged)
    }

    /// A recorded snapshot without the findings of the rules `--allow` turned off.
    private func judged(_ frame: SnapshotFrame) -> MonitorSnapshot {
        var snapshot = frame.snapshot
        snapshot.dropFindings(of: disabledRules)
        return snapshot
    }

    /// Seconds between the first and the shown snapshot.
    var recordedSeconds: Double {
        (try? recording.snapshot(at: 0)).map { frame.takenAt - $0.takenAt } ?? 0
    }

    private func show(_ index: Int) {
        let index = min(max(0, index), recording.frameCount - 1)
        do {
            frame = try recording.snapshot(at: index)
            position = index
            playedTo = frame.takenAt
        } catch {
            notice.show("snapshot \(index + 1) cannot be read: \(error)", seconds: 5)
        }
    }
}
