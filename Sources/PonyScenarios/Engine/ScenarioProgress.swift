/// Where a running scenario is: its phase, how long it has run and how much it has posted.
public struct ScenarioProgress: Sendable {
    /// The current phase's name.
    public let phaseName: String
    /// The current phase's index, from 0.
    public let phaseIndex: Int
    /// How many phases the scenario has.
    public let phaseCount: Int
    /// Seconds since start, paused time excluded.
    public let elapsed: Double
    /// Posts made so far.
    public let posted: UInt64
    /// Whether the runner is paused.
    public let isPaused: Bool
    /// Whether the scenario has finished: it ended (with `"then": "stop"`) or the runner was stopped.
    public let isFinished: Bool
    /// Deliveries the scenario's recipients have handled so far.
    public let delivered: UInt64

    /// Creates a progress report.
    public init(
        phaseName: String, phaseIndex: Int, phaseCount: Int, elapsed: Double, posted: UInt64, isPaused: Bool,
        isFinished: Bool, delivered: UInt64 = 0
    ) {
        self.delivered = delivered
        self.phaseName = phaseName
        self.phaseIndex = phaseIndex
        self.phaseCount = phaseCount
        self.elapsed = elapsed
        self.posted = posted
        self.isPaused = isPaused
        self.isFinished = isFinished
    }
}
