/// The running scenario as the header shows it.
package struct ScenarioStatus: Equatable, Sendable {
    /// The scenario's name.
    package var name: String
    /// The current phase's name.
    package var phase: String
    /// The phase's position, from 0, and the number of phases.
    package var phaseIndex, phaseCount: Int
    /// Whether the scenario itself is paused (`P`).
    package var isPaused: Bool
    /// Whether every phase has run.
    package var isFinished: Bool

    /// Creates a status.
    package init(name: String, phase: String, phaseIndex: Int, phaseCount: Int, isPaused: Bool, isFinished: Bool) {
        self.name = name
        self.phase = phase
        self.phaseIndex = phaseIndex
        self.phaseCount = phaseCount
        self.isPaused = isPaused
        self.isFinished = isFinished
    }
}
