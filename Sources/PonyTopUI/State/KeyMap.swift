/// The one table from key to action. Key handling looks keys up here and the help screen (and README) list it, so
/// they cannot disagree.
package enum KeyMap {
    /// Every binding, in the order help lists them.
    package static let bindings: [KeyBinding] = [
        KeyBinding([.up, .character("k")], "Up, k", .moveUp, "select the previous row (in help and details: scroll)"),
        KeyBinding(
            [.down, .character("j")], "Down, j", .moveDown, "select the next row (in help and details: scroll)"),
        KeyBinding([.pageUp], "PgUp", .pageUp, "move up 10 rows (in help and details: a screenful)"),
        KeyBinding([.pageDown], "PgDn", .pageDown, "move down 10 rows (in help and details: a screenful)"),
        KeyBinding([.home, .character("g")], "Home, g", .moveToTop, "go to the first row (or line)"),
        KeyBinding([.end, .character("G")], "End, G", .moveToBottom, "go to the last row (or line)"),
        KeyBinding(
            [.enter, .right], "Enter, Right", .open,
            "open the selected row: drill into a mail type, expand or collapse a site, show a finding"),
        KeyBinding([.character("d")], "d", .details, "show every field of the selected row, in full"),
        KeyBinding(
            [.character("s")], "s", .goToSite,
            "on a finding: go to its site, in its mail type's drill-down, with the site's row selected"),
        KeyBinding(
            [.escape, .backspace, .left], "Esc, Backspace, Left", .back,
            "go back: close details, collapse a site, leave the drill-down or queues, clear the filter"),
        KeyBinding([.tab], "Tab", .nextPane, "focus the next pane"),
        KeyBinding([.backTab], "Shift-Tab", .previousPane, "focus the previous pane"),
        KeyBinding(
            [.character("<")], "<", .sortLeft, "sort the focused table by the shown column to the left"),
        KeyBinding(
            [.character(">")], ">", .sortRight, "sort the focused table by the shown column to the right"),
        KeyBinding([.character("I")], "I", .invertSort, "invert the focused table's sort order"),
        KeyBinding(
            [.character("f")], "f", .freezeOrder,
            "freeze the row order: rows stop moving under the cursor (again: follow the sort)"),
        KeyBinding(
            [.character("t"), .function(5)], "t, F5", .tree,
            "show mail types as a class tree: subclass mail also goes to superclass recipients"),
        KeyBinding([.character("w")], "w", .queues, "show the queues: backlog and wait of each (again: back)"),
        KeyBinding([.character("/")], "/", .filter, "filter mail types by name (Enter keeps, Esc clears)"),
        KeyBinding(
            [.character("p"), .character(" ")], "p, Space", .pauseDisplay,
            "pause the display (the scenario keeps running)"),
        KeyBinding([.character("P")], "P", .source(.toggleScenarioPause), "pause or resume the scenario itself"),
        KeyBinding(
            [.character("+"), .character("=")], "+", .lengthenInterval,
            "lengthen the refresh interval (refresh less often)"),
        KeyBinding([.character("-")], "-", .shortenInterval, "shorten the refresh interval (refresh more often)"),
        KeyBinding(
            [.character("r")], "r", .resetStatistics,
            "reset counts, rates, histograms, prunes, findings, uptime (asks; attached: your findings)"),
        KeyBinding(
            [.character(",")], ",", .source(.replayStep(-1)), "replay: show the previous snapshot (pauses the replay)"),
        KeyBinding(
            [.character(".")], ".", .source(.replayStep(1)), "replay: show the next snapshot (pauses the replay)"),
        KeyBinding([.character("[")], "[", .source(.replaySeek(-1)), "replay: jump back a tenth of the recording"),
        KeyBinding([.character("]")], "]", .source(.replaySeek(1)), "replay: jump ahead a tenth of the recording"),
        KeyBinding([.character("0")], "0", .source(.replayRewind), "replay: go back to the first snapshot"),
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

    /// How help names the keys of an action, such as `Enter, Right`.
    package static func label(of action: Action) -> String {
        bindings.first { $0.action == action }?.label ?? ""
    }
}
