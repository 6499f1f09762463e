import PonyExpress
import PonyExpressMonitor
import PonyTopModel
import Testing

@testable import PonyTopUI

@Suite("Table panes: a cell is its column's, whatever the columns shown")
struct TablePaneTests {
    /// The busy fixture with every site and prune group expanded, so that tables show their sub-rows too.
    let context: DrawContext = {
        let dashboard = DashboardFixture.busy()
        var state = AppState()
        state.expanded = Set(dashboard.sites.map(\.key) + PruneGroupRow.group(dashboard.prunes).map(\.key))
        return DrawContext(dashboard: dashboard, state: state, glyphs: .unicode)
    }()

    /// What a cell shows, prefix and suffix included.
    static func text(_ cell: Table.Cell) -> String {
        switch cell {
        case .text(let text, _, let prefix, let suffix): prefix + text + suffix
        case .graph(let values): values.map { String($0) }.joined(separator: " ")
        }
    }

    /// The text of every cell of a pane's table in some columns, row by row.
    static func cells<PaneType: TablePane>(
        _ pane: PaneType, _ lines: [PaneType.Line], in columns: [Column]
    ) -> [[String]] {
        pane.table(lines, columns: columns, highlightsSelection: false, emptyMessage: "").rows.map {
            $0.cells.map(text)
        }
    }

    /// Checks that reversing a pane's columns, or leaving one out, reverses or drops its cells and changes none.
    func expectCellsFollowColumns<PaneType: TablePane>(_ type: PaneType.Type, _ lines: [PaneType.Line]) {
        let pane = PaneType(context: context)
        let columns = PaneType.columns
        #expect(!lines.isEmpty)
        let forward = Self.cells(pane, lines, in: columns)
        #expect(Self.cells(pane, lines, in: columns.reversed()) == forward.map { $0.reversed() })
        for index in columns.indices {
            var fewer = columns
            fewer.remove(at: index)
            let expected = forward.map { row in
                var row = row
                row.remove(at: index)
                return row
            }
            #expect(Self.cells(pane, lines, in: fewer) == expected, "without \(columns[index].id)")
        }
    }

    @Test("mail types, recipients, prunes and queues: reversed or dropped columns keep every cell under its heading")
    func cellsFollowColumns() {
        expectCellsFollowColumns(MailTypesPane.self, context.mailTypeLines)
        expectCellsFollowColumns(RecipientsPane.self, context.recipientLines)
        expectCellsFollowColumns(PrunesPane.self, context.pruneLines)
        expectCellsFollowColumns(QueuesPane.self, context.queues)
    }

    @Test("a cell shows its own column's value: the queues table's wait columns are p50, p99 and max")
    func queueCells() throws {
        let pane = QueuesPane(context: context)
        let queue = try #require(context.queues.first { $0.wait.count > 0 })
        #expect(Self.text(pane.cell(.waitP50, of: queue)) == context.duration(queue.wait.p50))
        #expect(Self.text(pane.cell(.waitP99, of: queue)) == context.duration(queue.wait.p99))
        #expect(Self.text(pane.cell(.waitMax, of: queue)) == context.duration(queue.wait.max))
        #expect(Self.text(pane.cell(.label, of: queue)) == queue.label)
    }

    @Test("prune groups sorted by LAST put the most recent first, and show how long before the snapshot it was")
    func prunesSortByLast() throws {
        let groups = PruneGroupRow.group(DashboardFixture.prunes)
        let ascending = SortOrder(column: PruneColumn.last, descending: false)
        let sorted = ascending.sorted(groups, key: \.key) { PrunesPane.sortKey(forColumn: $1, of: $0) }
        #expect(sorted.map(\.newestTime) == groups.map(\.newestTime).sorted(by: >))
        let pane = PrunesPane(context: context)
        let line = try #require(context.pruneLines.first { $0.key == sorted[0].key })
        #expect(Self.text(pane.cell(.last, of: line)) == context.ago(2 * DashboardFixture.second))
    }

    @Test("sites sort by file, then by line as a number: Cart.swift:9 before Cart.swift:10, and files before lines")
    func sitesSortByLine() {
        let sites = [
            ("Shop/Cart.swift", 10), ("Shop/Badge.swift", 200), ("Shop/Cart.swift", 9), ("Shop/Cart.swift", 100),
        ]
        .map { file, line in
            SiteRow(
                site: SourceLocation(fileID: file, line: UInt(line)), registeredFor: "CartUpdated", kind: .block,
                queue: nil, sender: .any, recipients: 1, deliveries: 0)
        }
        let ascending = SortOrder(column: RecipientColumn.site, descending: false)
        let sorted = ascending.sorted(sites, key: \.key) { RecipientsPane.sortKey(forColumn: $1, of: $0) }
        #expect(
            sorted.map(\.site.description) == [
                "Shop/Badge.swift:200", "Shop/Cart.swift:9", "Shop/Cart.swift:10", "Shop/Cart.swift:100",
            ])
        let prunes = sites.map {
            PruneGroupRow.group([
                PruneRecord(
                    recipientType: nil, mailType: TypeIdentity(Int.self), site: $0.site, lifetime: 1,
                    reason: .recipientReleased, time: 0
                )
            ])[0]
        }
        let prunesSorted = ascending.sorted(prunes, key: \.key) { PrunesPane.sortKey(forColumn: $1, of: $0) }
        #expect(prunesSorted.map(\.site.line) == [200, 9, 10, 100])
    }
}
