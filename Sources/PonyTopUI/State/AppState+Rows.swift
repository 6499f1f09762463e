import PonyExpress
import PonyExpressMonitor
import PonyTopModel

extension AppState {
    /// The mail types the table shows: filtered by name, then sorted (or in their frozen order), and laid out as a
    /// class tree when the tree is shown.
    package func mailTypeLines(in dashboard: Dashboard) -> [MailTypeLine] {
        MailTypesPane.lines(in: dashboard, state: self)
    }

    /// The mail type rows of the table, in the order shown.
    package func visibleMailTypes(in dashboard: Dashboard) -> [MailTypeStats] {
        mailTypeLines(in: dashboard).map(\.row)
    }

    /// The mail type whose recipients, latency and prunes are shown: the drilled-into one, else the selected row.
    package func focusedMailType(in dashboard: Dashboard) -> TypeIdentity? {
        if let drilledMailType { return drilledMailType }
        return selected(MailTypesPane.self, in: dashboard)?.line.row.mailType
    }

    /// The findings shown, ranked by ``FindingLog/Entry/ranked(_:)``; in the drill-down, only the drilled-into mail type's.
    package func findingRows(in dashboard: Dashboard) -> [FindingLog.Entry] {
        FindingsPane.lines(in: dashboard, state: self)
    }

    /// The keys of a pane's rows, in the order shown.
    package func keys(of pane: Pane, in dashboard: Dashboard) -> [String] {
        guard let rows = pane.rows else { return [] }
        return rows.lines(in: dashboard, state: self).map(\.key)
    }

    /// The selected position among a pane's rows, `nil` when it has none.
    package func selectedIndex(of pane: Pane, in dashboard: Dashboard) -> Int? {
        cursor(of: pane).position(in: keys(of: pane, in: dashboard))
    }

    /// A pane's selected row and its position, `nil` when it has none.
    func selected<Rows: RowsPane>(_ pane: Rows.Type, in dashboard: Dashboard) -> (line: Rows.Line, index: Int)? {
        let lines = Rows.lines(in: dashboard, state: self)
        return cursor(of: Rows.pane).position(in: lines.map(\.key)).map { (lines[$0], $0) }
    }

    /// A pane's cursor: the first row until the user moves.
    package func cursor(of pane: Pane) -> Cursor {
        cursors[pane] ?? Cursor(key: nil, index: 0)
    }

    /// `records` sorted by the table's sort order, or in its frozen order with new records last (in sort order).
    func order<Table: TablePane>(_ records: [Table.Record], by table: Table.Type) -> [Table.Record] {
        let sorted =
            sortOrder(of: Table.pane).map {
                $0.sorted(records, key: \.key, value: { Table.sortKey(forColumn: $1, of: $0) })
            } ?? records
        guard let frozen = frozenOrders?[Table.pane] else { return sorted }
        var position: [String: Int] = [:]
        for (index, key) in frozen.enumerated() { position[key] = index }
        return sorted.enumerated().sorted { lhs, rhs in
            (position[lhs.element.key] ?? frozen.count + lhs.offset)
                < (position[rhs.element.key] ?? frozen.count + rhs.offset)
        }.map(\.element)
    }

    /// The keys of the records a table shows, in the order shown: what freezing the order keeps.
    func recordKeys<Table: TablePane>(of table: Table.Type, in dashboard: Dashboard) -> [String] {
        Table.lines(in: dashboard, state: self).compactMap { Table.record(of: $0)?.key }
    }
}
