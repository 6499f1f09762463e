/// The one table from key to action. Key handling looks keys up here and the help screen and README are built
/// from it, so they cannot disagree.
package enum KeyMap {
    /// Every binding, in the order help lists them.
    package static let bindings: [KeyBinding] = [
        KeyBinding([.up, .character("k")], "Up, k", .moveUp, "select the previous row, or scroll up"),
        KeyBinding([.down, .character("j")], "Down, j", .moveDown, "select the next row, or scroll down"),
        KeyBinding([.pageUp], "PgUp", .pageUp, "move up one page"),
        KeyBinding([.pageDown], "PgDn", .pageDown, "move down one page"),
        KeyBinding([.home, .character("g")], "Home, g", .moveToTop, "go to the first row"),
        KeyBinding([.end, .character("G")], "End, G", .moveToBottom, "go to the last row"),
        KeyBinding([.enter, .right], "Enter, Right", .drillIn, "drill into the selected mail type"),
        KeyBinding([.escape, .backspace, .left], "Esc, Backspace, Left", .back, "go back"),
        KeyBinding([.tab], "Tab", .nextPane, "focus the next pane"),
        KeyBinding([.backTab], "Shift-Tab", .previousPane, "focus the previous pane"),
        KeyBinding([.character("s")], "s", .cycleSort, "sort mail types by the next column"),
        KeyBinding([.character("S")], "S", .reverseSort, "reverse the sort order"),
        KeyBinding([.character("/")], "/", .filter, "filter mail types by name (Enter keeps, Esc clears)"),
        KeyBinding(
            [.character("p"), .character(" ")], "p, Space", .pauseDisplay,
            "pause the display (the scenario keeps running)"),
        KeyBinding([.character("P")], "P", .pauseScenario, "pause or resume the scenario itself"),
        KeyBinding([.character("+"), .character("=")], "+", .refreshSlower, "refresh less often"),
        KeyBinding([.character("-")], "-", .refreshFaster, "refresh more often"),
        KeyBinding([.character("r")], "r", .resetStatistics, "reset statistics"),
        KeyBinding([.character(",")], ",", .stepBack, "replay: show the previous snapshot (pauses)"),
        KeyBinding([.character(".")], ".", .stepForward, "replay: show the next snapshot (pauses)"),
        KeyBinding([.character("[")], "[", .seekBack, "replay: jump back a tenth of the recording"),
        KeyBinding([.character("]")], "]", .seekForward, "replay: jump ahead a tenth of the recording"),
        KeyBinding([.character("?"), .character("h"), .function(1)], "?, h, F1", .help, "show or hide this help"),
        KeyBinding([.character("q")], "q", .quit, "quit"),
    ]

    private static let table: [Key: Action] = {
        var table: [Key: Action] = [:]
        for binding in bindings {
            for key in binding.keys { table[key] = binding.action }
        }
        return table
    }()

    /// The action bound to a key, if any.
    package static func action(for key: Key) -> Action? {
        table[key]
    }
}
