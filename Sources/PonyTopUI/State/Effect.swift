/// What a key asks of the world outside the app state: the session carries it out.
package enum Effect: Hashable, Sendable {
    /// Nothing beyond the state change.
    case none
    /// Leave ponytop.
    case quit
    /// Pause the scenario if it runs, resume it if it is paused.
    case toggleScenarioPause
    /// Clear the monitor's statistics (the user confirmed).
    case resetStatistics
    /// Replay: move by this many snapshots and pause.
    case replayStep(Int)
    /// Replay: move by this many tenths of the recording.
    case replaySeek(Int)
    /// Replay: go back to the first snapshot.
    case replayRewind

    /// What the key does, as ponytop says when the source shown has no use for it (`P pauses ponytop's scenario, not
    /// an attached app`), short enough for an 80-column header; `nil` for an effect that concerns no source.
    package var purpose: String? {
        switch self {
        case .none, .quit: nil
        case .toggleScenarioPause: "P pauses ponytop's scenario"
        case .resetStatistics: "r resets what ponytop counts"
        case .replayStep, .replaySeek, .replayRewind: "replay keys move in a recording"
        }
    }
}
