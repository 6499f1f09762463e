/// A table whose records expand into their parts below them: the recipients (a site into its registrations) and the
/// prunes (a group into its prunes).
///
/// The pane says which records it has, a record's line and its parts' lines, and which record a line belongs to;
/// the rows, what Enter does (a record expands or collapses, a part shows its details), what Esc collapses and the
/// record a frozen order keeps follow from that.
protocol ExpandingTablePane: TablePane {
    /// The records shown, before sorting.
    static func records(in dashboard: Dashboard, state: AppState) -> [Record]
    /// A record's own line, which shows whether it is expanded.
    static func line(of record: Record, isExpanded: Bool) -> Line
    /// The lines of a record's parts, shown below it while it is expanded.
    static func parts(of record: Record) -> [Line]
    /// The record a line shows or belongs to. A record's own line has the record's key; a part's line, its own.
    static func owner(of line: Line) -> Record
}

extension ExpandingTablePane {
    static var enterHint: String { "expand" }

    /// Each record in the table's order, followed by its parts when it is expanded.
    static func lines(in dashboard: Dashboard, state: AppState) -> [Line] {
        state.order(records(in: dashboard, state: state), by: Self.self).flatMap { record in
            let isExpanded = state.expanded.contains(record.key)
            return [line(of: record, isExpanded: isExpanded)] + (isExpanded ? parts(of: record) : [])
        }
    }

    static func record(of line: Line) -> Record? {
        let owner = owner(of: line)
        return owner.key == line.key ? owner : nil
    }

    /// A record expands or collapses; a part shows its details.
    static func enter(on line: Line?) -> EnterAction? {
        line.map { line in record(of: line).map { .toggle($0.key) } ?? .details }
    }

    static func group(of line: Line) -> String? { owner(of: line).key }
}
