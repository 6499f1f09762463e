/// A table whose records expand into their parts below them: the recipients (a site into its registrations) and the
/// prunes (a group into its prunes).
///
/// The pane says which records it has; its lines are ``ExpandingLine``s of them, and the rows, what Enter does (a
/// record expands or collapses, a part shows its details), what Esc collapses and the record a frozen order keeps
/// follow from that.
protocol ExpandingTablePane: TablePane where Record: ExpandingRecord, Line == ExpandingLine<Record> {
    /// The records shown, before sorting.
    static func records(in dashboard: Dashboard, state: AppState) -> [Record]
}

extension ExpandingTablePane {
    static var enterHint: String { "expand" }

    /// Each record in the table's order, followed by its parts when it is expanded.
    static func lines(in dashboard: Dashboard, state: AppState) -> [Line] {
        state.order(records(in: dashboard, state: state), by: Self.self).flatMap { record in
            let isExpanded = state.expanded.contains(record.key)
            let parts = isExpanded ? record.parts.enumerated().map { Line.part($1, of: record, index: $0) } : []
            return [.record(record, isExpanded: isExpanded)] + parts
        }
    }

    static func record(of line: Line) -> Record? {
        if case .record(let record, _) = line { record } else { nil }
    }

    /// A record expands or collapses; a part shows its details.
    static func enter(on line: Line?) -> EnterAction? {
        line.map { line in record(of: line).map { .toggle($0.key) } ?? .details }
    }

    static func group(of line: Line) -> String? { line.owner.key }
}
