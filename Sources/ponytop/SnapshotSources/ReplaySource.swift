import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
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
    var notice = Notice()
    /// The rules `--allow` turned off: their recorded findings are not shown or reported.
    private let disabledRules: Set<Finding.Kind>
    /// The replay's own judge of the recorded rule facts, when the recording has them: every rule is judged again
    /// with the replay's thresholds (the leak rule only from facts of wire protocol 1.8 or later).
    private let judge: FactsJudge?
    /// What the judge found in each snapshot judged so far: snapshots are judged in order, so a finding is dated,
    /// and a leak held, the same however the replay reached a snapshot. `nil` for a snapshot without facts.
    private var rejudged: [FactsJudge.Judged?] = []
    /// The snapshots judged so far whose facts the replay's judge could not judge (gathered with another stall bound,
    /// a shorter history or a higher count floor than the first snapshot's: a recording made across an app's restart,
    /// or crafted), by index, with why: their findings are shown as recorded.
    private var shownAsRecorded: [Int: String] = [:]
    var snapshot: MonitorSnapshot { judged(frame, at: position) }

    /// Opens a recording.
    ///
    /// - Parameters:
    ///   - path: The `--replay` file.
    ///   - strict: Refuse a recording that is cut short or damaged anywhere (every frame is decoded first), as a
    ///     report must; otherwise it plays up to the damage and says so.
    ///   - settings: The replay's rules and thresholds: the config file's, with `--allow`, `--warn` and
    ///     `--rule-setting` over them.
    ///   - overrides: The same options as changes over the defaults: a recording whose hello names the recorded app's
    ///     rules (wire protocol 1.9) is judged with those rules and `overrides` over them, as the viewer judged it.
    ///   - namedParameters: The parameters `--rule-setting` named, which must be judged again or refused.
    /// - Throws: A one-line description when the file cannot be read, is not a recording, holds no snapshot, or
    ///   (strict) is damaged, or when its findings cannot be judged with `settings`.
    init(
        path: String, strict: Bool = false, settings: MonitorSettings = MonitorSettings(),
        overrides: RuleOverrides? = nil, namedParameters: [String] = []
    ) throws {
        recording = try Recording(path: path)
        var settings = settings
        if let overrides, let appRules = recording.hello.appRules {
            settings = try MonitorSettings(appRules: appRules, overriddenBy: overrides)
        }
        disabledRules = settings.disabledRules
        guard recording.frameCount > 0 else {
            throw recording.damage ?? WireError.malformed("'\(path)' holds no snapshot")
        }
        if strict, let problem = recording.firstProblem() { throw problem }
        fileName = path.split(separator: "/").last.map(String.init) ?? path
        frame = try recording.snapshot(at: 0)
        judge = try Self.judge(of: frame, path: path, settings: settings, namedParameters: namedParameters)
        playedTo = frame.takenAt
        if let damage = recording.damage {
            notice.show("\(damage); it plays to its last whole snapshot", seconds: 5)
        }
    }

    var status: SourceStatus {
        var status = SourceStatus(
            title: "replay \(fileName) \(position + 1)/\(recording.frameCount) of \(recording.hello.processName)",
            notice: notice.current ?? shownAsRecordedNotice
                ?? (position == recording.frameCount - 1 ? "END OF RECORDING" : nil))
        status.isReplay = true
        status.resetScope = .nothing
        return status
    }

    /// While the shown snapshot's findings are shown as recorded (see ``shownAsRecordedNote``), the status says so.
    private var shownAsRecordedNotice: String? {
        guard shownAsRecorded[position] != nil else { return nil }
        return "this snapshot's findings are shown as recorded: its rule facts do not fit the replay's rules"
    }

    var origin: SourceOrigin {
        SourceOrigin(kind: .replay, name: recording.hello.processName, pid: recording.hello.pid)
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

    func carryOut(_ effect: Effect) -> Bool {
        switch effect {
        case .replayStep(let step):
            show(position + step)
        case .replaySeek(let tenths):
            show(position + tenths * max(1, recording.frameCount / 10))
        case .replayRewind:
            show(0)
        default:
            return false
        }
        lastRefresh = nil
        return true
    }

    func finalSnapshot() -> MonitorSnapshot {
        show(recording.frameCount - 1)
        return snapshot
    }

    /// Every finding of the recording, snapshot after snapshot: the log a report of the replay judges, as the
    /// recorded run's report did.
    func findingLog() -> FindingLog {
        findingLog(through: recording.frameCount - 1)
    }

    /// The findings of the snapshots up to the one shown: the log of a replay stepped back, as if played to it.
    func findingLogToShown() -> FindingLog {
        findingLog(through: position)
    }

    private func findingLog(through last: Int) -> FindingLog {
        var log = FindingLog()
        for index in 0...max(0, last) {
            if let frame = try? recording.snapshot(at: index) { log.record(judged(frame, at: index)) }
        }
        return log
    }

    func stop() {}

    /// The recording's first snapshot: where a report's run begins, its counts the baseline of the totals.
    var firstSnapshot: MonitorSnapshot? {
        (try? recording.snapshot(at: 0)).map { judged($0, at: 0) }
    }

    /// The rules whose findings the replay judges again: none without rule facts, all but the leak rule with facts
    /// from before wire protocol 1.8.
    var judgedKinds: Set<Finding.Kind> {
        guard judge != nil, let facts = (try? recording.snapshot(at: 0))?.snapshot.ruleFacts else { return [] }
        return FindingJudge.kindsJudged(from: facts)
    }

    /// What a replay says when some snapshots' facts could not be judged with its rules, and their findings are
    /// shown as recorded; `nil` when every snapshot judged so far was judged again.
    var shownAsRecordedNote: String? {
        shownAsRecorded.min { $0.key < $1.key }.map { first, reason in
            "snapshot \(first + 1) of '\(fileName)' cannot be judged with the replay's rules (\(reason)): "
                + "its findings, and those of any such snapshot, are shown as recorded"
        }
    }

    /// A recorded snapshot judged with the replay's rules: the findings of the rules its facts let the replay judge
    /// judged again (all but the leak rule's in facts from before wire protocol 1.8, kept as recorded), and none of
    /// the rules `--allow` turned off.
    private func judged(_ frame: SnapshotFrame, at index: Int) -> MonitorSnapshot {
        var snapshot = frame.snapshot
        rejudgedFindings(at: index)?.apply(to: &snapshot)
        snapshot.dropFindings(of: disabledRules)
        snapshot.dropRuleFacts()
        return snapshot
    }

    /// The replay judge's findings in snapshot `index`, judging every snapshot before it first; `nil` without a
    /// judge or facts.
    private func rejudgedFindings(at index: Int) -> FactsJudge.Judged? {
        guard let judge else { return nil }
        while rejudged.count <= index {
            let next = rejudged.count
            let recorded = try? recording.snapshot(at: next).snapshot
            rejudged.append(
                recorded.flatMap { snapshot in
                    snapshot.ruleFacts.flatMap { facts -> FactsJudge.Judged? in
                        do throws(FactsJudge.Refusal) {
                            try judge.validate(facts)
                        } catch {
                            shownAsRecorded[next] = "\(error.setting) = \(error.value), expected \(error.expected)"
                            return nil
                        }
                        return judge.judge(facts, datingFrom: snapshot.findings)
                    }
                })
        }
        return rejudged[index]
    }

    /// The judge of a recording whose first snapshot carries rule facts, checked against them; `nil` for a recording
    /// without (made before wire protocol 1.7, or from an older agent), which replays the findings as they were
    /// judged.
    private static func judge(
        of first: SnapshotFrame, path: String, settings: MonitorSettings, namedParameters: [String]
    ) throws -> FactsJudge? {
        guard let facts = first.snapshot.ruleFacts else {
            guard let name = namedParameters.first else { return nil }
            throw ReplayRefusal(
                "--rule-setting \(name): '\(path)' holds no rule facts (it was recorded before wire protocol 1.7), "
                    + "only the findings judged as it was recorded (--allow and --warn do apply); drop "
                    + "--rule-setting")
        }
        let unjudged = FindingRules.all.filter { !FindingJudge.kindsJudged(from: facts).contains($0.kind) }
        if let rule = unjudged.first,
            let name = namedParameters.first(where: { $0.hasPrefix(rule.kind.rawValue + ".") })
        {
            throw ReplayRefusal(
                "--rule-setting \(name): '\(path)' holds no facts of \(rule.kind) (it was recorded before wire "
                    + "protocol 1.8), so it replays its findings as recorded (every other rule is judged again); "
                    + "drop it")
        }
        let judge = FactsJudge(settings: settings)
        do {
            try judge.validate(facts)
        } catch {
            throw ReplayRefusal("\(error.setting) = \(error.value) cannot judge '\(path)': expected \(error.expected)")
        }
        return judge
    }

    /// Seconds between the first and the shown snapshot.
    var recordedSeconds: Double {
        (try? recording.snapshot(at: 0)).map { frame.takenAt - $0.takenAt } ?? 0
    }

    private struct ReplayRefusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
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
