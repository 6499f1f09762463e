/// The running scenario as the header shows it.
public struct ScenarioStatus: Equatable, Sendable {
    /// The scenario's name.
    public var name: String
    /// The current phase's name.
    public var phase: String
    /// The phase's position, from 0, and the number of phases.
    public var phaseIndex, phaseCount: Int
    /// Whether the scenario itself is paused (`P`).
    public var isPaused: Bool
    /// Whether every phase has run.
    public var isFinished: Bool

    /// Creates a status.
    public init(name: String, phase: String, phaseIndex: Int, phaseCount: Int, isPaused: Bool, isFinished: Bool) {
        self.name = name
        self.phase = phase
        self.phaseIndex = phaseIndex
        self.phaseCount = phaseCount
        self.isPaused = isPaused
        self.isFinished = isFinished
    }
}
