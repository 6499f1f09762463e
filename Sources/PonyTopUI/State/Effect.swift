/// What a key asks of the world outside the app state: the session carries it out.
package enum Effect: Equatable, Sendable {
    /// Nothing beyond the state change.
    case none
    /// Leave ponytop.
    case quit
    /// Pause the scenario if it runs, resume it if it is paused.
    case toggleScenarioPause
    /// Clear the monitor's statistics (the user confirmed).
    case resetStatistics
}
