import PonyExpress

/// A description of sample load for a `PostOffice`: which recipients exist and how they behave, and, over timed
/// phases, which mail is posted, how fast and from how many threads.
///
/// Run one with a ``ScenarioRunner``. Seven scenarios are built in (``builtins``); others are read from scenario files
/// (``load(contentsOf:)``), whose format README.md documents.
///
/// ```swift
/// let office = PostOffice()
/// let runner = ScenarioRunner(scenario: try Scenario.resolve("leaky"), office: office)
/// runner.start()
/// // ...
/// runner.stop()
/// ```
public struct Scenario: Sendable, Hashable {
    /// What happens after the last phase.
    public enum Ending: String, CaseIterable, Sendable, Hashable {
        /// Start again from the first phase; recipients carry on as they are.
        case `repeat` = "repeat"
        /// Stop posting; recipients stay registered until the runner stops.
        case stop = "stop"
    }

    /// The scenario's name, such as `app`.
    public let name: String
    /// The one-line description.
    public let summary: String
    /// What happens after the last phase.
    public let ending: Ending
    /// The recipients registered while the scenario runs.
    public let recipients: [ScenarioRecipients]
    /// The timed phases, run in order.
    public let phases: [ScenarioPhase]

    /// Creates a scenario. The runner clamps out-of-range values; files are checked by the parser instead.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - summary: A one-line description.
    ///   - ending: What happens after the last phase.
    ///   - recipients: The recipients registered while it runs.
    ///   - phases: The timed phases, at least one.
    public init(
        name: String, summary: String, ending: Ending = .repeat, recipients: [ScenarioRecipients],
        phases: [ScenarioPhase]
    ) {
        self.name = name
        self.summary = summary
        self.ending = ending
        self.recipients = recipients
        self.phases = phases
    }

    /// The length of one pass through every phase, in seconds.
    public var cycleDuration: Double {
        phases.reduce(0) { $0 + $1.duration }
    }
}
