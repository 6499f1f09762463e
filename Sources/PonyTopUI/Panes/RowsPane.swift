/// A pane whose rows the user selects, opens and reads in full: the table panes (``TablePane``) and the findings.
///
/// The pane's type says which rows it shows and in what order, how Enter treats a row and what a row's details are;
/// ``Pane`` is only its identity. The latency pane has no rows to select and is no `RowsPane`.
protocol RowsPane: PaneView {
    /// One row of the pane as shown: a record, or one part of an expanded record.
    associatedtype Line: Keyed

    /// The pane's identity, for focus, cursors, sorts and the columns a frame showed.
    static var pane: Pane { get }
    /// The pane's title, before what the pane adds to it.
    static var title: String { get }
    /// What Enter does, in a word or two for the footer: `open` unless the pane says otherwise.
    static var enterHint: String { get }
    /// The rows shown, in order, for a dashboard in a state.
    static func lines(in dashboard: Dashboard, state: AppState) -> [Line]
    /// What Enter does on the selected row (`nil` when there is none); `nil` for nothing. The details unless the
    /// pane says otherwise.
    static func enter(on line: Line?) -> EnterAction?
    /// The key of the expandable record a row shows or belongs to, which Esc collapses when it is expanded; `nil`
    /// unless the pane expands records.
    static func group(of line: Line) -> String?

    /// What the frame shows.
    var context: DrawContext { get }
    /// The details view's title and every field of a row, nothing cut; a field with an empty name continues a list.
    func details(of line: Line) -> (title: String, fields: [(name: String, value: String)])
}

extension RowsPane {
    static var enterHint: String { "open" }

    static func enter(on line: Line?) -> EnterAction? { .details }

    static func group(of line: Line) -> String? { nil }
}
