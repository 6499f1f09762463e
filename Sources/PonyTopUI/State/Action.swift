/// What a key does. The ``KeyMap`` binds keys to actions; ``AppState/perform(_:dashboard:)`` carries them out.
package enum Action: String, Hashable, Sendable, CaseIterable {
    /// Select the previous row, or scroll the focused pane up.
    case moveUp
    /// Select the next row, or scroll the focused pane down.
    case moveDown
    /// Move up one page.
    case pageUp
    /// Move down one page.
    case pageDown
    /// Go to the first row.
    case moveToTop
    /// Go to the last row.
    case moveToBottom
    /// Show the selected mail type full screen.
    case drillIn
    /// Leave the drill-down, or clear the filter.
    case back
    /// Focus the next pane.
    case nextPane
    /// Focus the previous pane.
    case previousPane
    /// Sort the mail types by the next column.
    case cycleSort
    /// Reverse the sort order.
    case reverseSort
    /// Start typing a filter.
    case filter
    /// Freeze or unfreeze the display; the scenario keeps running.
    case pauseDisplay
    /// Pause or resume the scenario itself.
    case pauseScenario
    /// Lengthen the refresh interval.
    case refreshSlower
    /// Shorten the refresh interval.
    case refreshFaster
    /// Clear the monitor's statistics.
    case resetStatistics
    /// Replay: show the previous snapshot, paused.
    case stepBack
    /// Replay: show the next snapshot, paused.
    case stepForward
    /// Replay: jump back a tenth of the recording.
    case seekBack
    /// Replay: jump ahead a tenth of the recording.
    case seekForward
    /// Show or hide help.
    case help
    /// Leave ponytop.
    case quit
}
