import Dispatch
import Logging
import PonyExpress
import PonyExpressMonitor

/// Logs each finding through swift-log when it first appears and when it stops holding (or is retracted), with its
/// site and evidence as metadata: the `MonitorAgent` option that sends findings where a team already reads its logs.
///
/// The app's own `LoggingSystem` backend decides where the lines go. The agent takes a snapshot every `interval` for
/// it; without viewers that is the only cost.
///
/// ```swift
/// let agent = try MonitorAgent.start(
///     watching: .default, logging: FindingLogging(logger: Logger(label: "app.ponyexpress")))
/// ```
public struct FindingLogging: Sendable {
    /// Where the lines go.
    public var logger: Logger
    /// How often the agent looks for new findings, in seconds.
    public var interval: Double
    /// The level of a finding that appears (or holds again): `warning` unless set.
    public var appearedLevel: Logger.Level
    /// The level of a finding that stops holding or is retracted: `notice` unless set.
    public var endedLevel: Logger.Level

    /// Creates the option.
    ///
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - interval: Seconds between looks, from 0.1 to 3600; 1 by default.
    ///   - appearedLevel: The level of a finding that appears.
    ///   - endedLevel: The level of a finding that stops holding or is retracted.
    public init(
        logger: Logger, interval: Double = 1, appearedLevel: Logger.Level = .warning, endedLevel: Logger.Level = .notice
    ) {
        self.logger = logger
        self.interval = interval.isFinite ? Swift.min(3600, Swift.max(0.1, interval)) : 1
        self.appearedLevel = appearedLevel
        self.endedLevel = endedLevel
    }
}

/// Keeps the findings log of an agent's monitor and writes its changes to a logger.
///
/// ``record(_:)`` is what the agent's timer calls with each snapshot; tests call it with snapshots of a monitor on
/// a manual clock.
public final class FindingLogger: Sendable {
    private let options: FindingLogging
    private let log = Locked(FindingLog())

    /// Creates a logger of findings.
    ///
    /// - Parameter options: Where and at which levels.
    public init(_ options: FindingLogging) {
        self.options = options
    }

    /// Logs what changed in `snapshot`'s findings since the last one: one line per finding that appeared, held
    /// again, stopped holding or was retracted.
    ///
    /// - Parameter snapshot: The monitor's latest snapshot.
    public func record(_ snapshot: MonitorSnapshot) {
        let changes = log.withLock { $0.record(snapshot) }
        for change in changes {
            let finding = change.entry.finding
            var metadata: Logger.Metadata = [
                "finding.kind": .string(finding.kind.rawValue),
                "finding.category": .string(finding.category.rawValue),
                "finding.mailType": .string(finding.mailType.name),
                "finding.event": .string(change.event.rawValue),
            ]
            if let site = finding.site {
                metadata["finding.site"] = .string(site.description)
                if let path = site.filePath { metadata["finding.file"] = .string(path) }
                metadata["finding.line"] = .stringConvertible(site.line)
            }
            if let subject = finding.subject { metadata["finding.subject"] = .string(subject) }
            metadata["finding.evidence"] = .dictionary(
                Dictionary(
                    finding.evidence.map { ($0.name.rawValue, Logger.MetadataValue.string($0.formattedValue)) },
                    uniquingKeysWith: { first, _ in first }))
            let level: Logger.Level
            let message: String
            switch change.event {
            case .appeared:
                level = options.appearedLevel
                message = "ponyexpress finding: \(finding.explanation)"
            case .holdsAgain:
                level = options.appearedLevel
                message = "ponyexpress finding holds again: \(finding.explanation)"
            case .stoppedHolding:
                level = options.endedLevel
                message =
                    "ponyexpress finding no longer holds: \(finding.kind) \(finding.mailType.name)"
                    + (finding.site.map { " at \($0)" } ?? "")
            case .retracted:
                level = options.endedLevel
                metadata["finding.retraction"] = .string(finding.retraction ?? "")
                message =
                    "ponyexpress finding retracted: \(finding.kind) \(finding.mailType.name)"
                    + (finding.site.map { " at \($0)" } ?? "") + ": " + (finding.retraction ?? "")
            }
            options.logger.log(level: level, "\(message)", metadata: metadata)
        }
    }
}

/// The agent's timer that feeds a ``FindingLogger`` with snapshots. `@unchecked`: Dispatch's source protocols are not
/// marked `Sendable` on Linux; a timer is safe to cancel from any thread.
final class FindingLogTimer: @unchecked Sendable {
    private let timer: any DispatchSourceTimer

    init(monitor: PostOfficeMonitor, options: FindingLogging) {
        let logger = FindingLogger(options)
        // Its own judge: a viewer's cadence or reset never changes what the log says.
        let judge = monitor.makeJudge()
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "ponyexpress.agent.findings"))
        let interval = DispatchTimeInterval.nanoseconds(Int(options.interval * 1e9))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak monitor] in
            guard let monitor else { return }
            logger.record(monitor.snapshot(judgedBy: judge))
        }
        self.timer = timer
        timer.resume()
    }

    func cancel() {
        timer.cancel()
    }
}
