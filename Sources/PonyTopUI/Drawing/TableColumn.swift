/// A column of a pane's table: its heading, how wide it is, and which columns go first when space runs out.
struct TableColumn {
    /// The heading.
    var heading: String
    /// The width, or the minimum width of a flexible column.
    var width: Int
    /// Whether it takes a share of the spare width.
    var flexible = false
    /// Whether values are right-aligned (numbers).
    var rightAligned = false
    /// Lower numbers are dropped first when the table is too narrow.
    var priority = 10

    /// Places columns in `width` columns, dropping low-priority ones until the rest fit, one space apart.
    ///
    /// - Returns: For each column, its left edge and width, or `nil` when it was dropped.
    static func fit(_ columns: [TableColumn], width: Int) -> [(x: Int, width: Int)?] {
        var kept = Set(columns.indices)
        func needed() -> Int { kept.reduce(0) { $0 + columns[$1].width } + max(0, kept.count - 1) }
        while needed() > width, kept.count > 1 {
            let lowest = kept.min { (columns[$0].priority, -$0) < (columns[$1].priority, -$1) }!
            kept.remove(lowest)
        }
        let flexible = kept.filter { columns[$0].flexible }.sorted()
        var spare = max(0, width - needed())
        var widths = columns.map(\.width)
        for (offset, index) in flexible.enumerated() {
            let share = spare / (flexible.count - offset)
            widths[index] += share
            spare -= share
        }
        var x = 0
        var result: [(x: Int, width: Int)?] = []
        for index in columns.indices {
            guard kept.contains(index) else {
                result.append(nil)
                continue
            }
            result.append((x, min(widths[index], max(0, width - x))))
            x += widths[index] + 1
        }
        return result
    }
}
