/// What a key does. The ``KeyMap`` binds keys to actions; ``AppState/perform(_:dashboard:)`` carries them out.
package enum Action: Hashable, Sendable {
    /// Select the previous row, or scroll up.
    case moveUp
    /// Select the next row, or scroll down.
    case moveDown
    /// Move up one page.
    case pageUp
    /// Move down one page.
    case pageDown
    /// Go to the first row.
    case moveToTop
    /// Go to the last row.
    case moveToBottom
    /// Open the selected row: drill into a mail type, expand or collapse a site or prune group, or show details.
    case open
    /// Show every field of the selected row.
    case details
    /// Show the selected finding's site: its mail type's drill-down, with the site's row selected.
    case goToSite
    /// Close details, collapse, leave the drill-down or the queues, or clear the filter.
    case back
    /// Focus the next pane.
    case nextPane
    /// Focus the previous pane.
    case previousPane
    /// Sort the table by the column to the left of the current one.
    case sortLeft
    /// Sort the table by the column to the right of the current one.
    case sortRight
    /// Reverse the sort order.
    case invertSort
    /// Stop rows from moving as their values change, or let them follow the sort again.
    case freezeOrder
    /// Show the mail types as a class tree, or as a flat table.
    case tree
    /// Show the queues view, or leave it.
    case queues
    /// Start typing a filter.
    case filter
    /// Freeze or unfreeze the display; the scenario keeps running.
    case pauseDisplay
    /// Lengthen the refresh interval: refresh less often.
    case lengthenInterval
    /// Shorten the refresh interval: refresh more often.
    case shortenInterval
    /// Ask to reset the statistics.
    case resetStatistics
    /// Ask the snapshot source for an effect whose whole meaning is the source's (pause the scenario, move in a
    /// replay): the source carries it out, or says in one line that it does not apply to it. A key that only reaches
    /// the source is its binding in ``KeyMap``, its ``Effect`` case and the source that carries it out.
    case source(Effect)
    /// Show or hide help.
    case help
    /// Leave ponytop.
    case quit
}
