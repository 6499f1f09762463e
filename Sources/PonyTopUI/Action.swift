/// What a key does. The ``KeyMap`` binds keys to actions; ``AppState/perform(_:visible:)`` carries them out.
public enum Action: String, Hashable, Sendable, CaseIterable {
    case moveUp, moveDown, pageUp, pageDown, moveToTop, moveToBottom
    case drillIn, back, nextPane, previousPane
    case cycleSort, reverseSort, filter
    case pauseDisplay, pauseScenario
    case refreshSlower, refreshFaster
    case resetStatistics, help, quit
}
