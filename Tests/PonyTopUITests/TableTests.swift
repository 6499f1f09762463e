import Testing

@testable import PonyTopUI

@Suite("Tables: widths by need, sites shortened from the module side")
struct TableTests {
    @Test(
        "a site keeps its file name and line whole as long as they fit, and its module whole or not at all",
        arguments: [
            (41, "PonyScenarios/Demo/BlockObserver.swift:10"),
            (38, "PonyScenarios/…/BlockObserver.swift:10"),
            (36, "…/BlockObserver.swift:10"),
            (30, "…/BlockObserver.swift:10"),
            (24, "…/BlockObserver.swift:10"),
            (22, "BlockObserver.swift:10"),
            (12, "…er.swift:10"),
        ])
    func sitePath(width: Int, expected: String) {
        let fitted = SitePath.fit("PonyScenarios/Demo/BlockObserver.swift:10", width: width, mark: "…")
        #expect(fitted == expected)
        #expect(fitted.unicodeScalars.count <= width)
    }

    @Test(
        "in ASCII the folders left out read `...`, never `~/`, which reads as a home directory",
        arguments: [
            (40, "PonyScenarios/.../BlockObserver.swift:10"),
            (38, ".../BlockObserver.swift:10"),
            (26, ".../BlockObserver.swift:10"),
            (25, "BlockObserver.swift:10"),
            (12, "....swift:10"),
            (3, ":10"),
        ])
    func asciiSitePath(width: Int, expected: String) {
        let mark = GlyphSet.ascii.pathEllipsis
        let fitted = SitePath.fit("PonyScenarios/Demo/BlockObserver.swift:10", width: width, mark: mark)
        #expect(fitted == expected)
        #expect(fitted.unicodeScalars.count <= width)
        #expect(!fitted.contains("~"))
    }

    @Test("wrapped text never splits a path: one longer than the line keeps its file and line whole, on a line")
    func wrappedPath() {
        let text = "registrations at PonyScenarios/Demo/DownloadsViewModel.swift:9 are pruned"
        let lines = Text.wrap(text, width: 36)
        #expect(lines == ["registrations at", "…/DownloadsViewModel.swift:9 are", "pruned"])
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 36 })
        #expect(
            Text.wrap(text, width: 30, pathMark: "...") == [
                "registrations at", ".../DownloadsViewModel.swift:9", "are pruned",
            ])
        #expect(Text.wrap("a verylongwordwithoutanyslash", width: 10) == ["a", "verylongwo", "rdwithouta", "nyslash"])
    }

    @Test("columns get what they need, spare width goes to the graph, else to the text")
    func spareWidth() {
        let columns = MailTypesPane.columns
        let needs = [12, 7, 12, 10, 6, 5, 5, 8, 0]
        let minimums = [10, 7, 12, 10, 6, 5, 5, 8, 8]
        let placed = Table.layout(columns, needs: needs, minimums: minimums, width: 150)
        #expect(placed[0]?.width == 12, "the name gets its need")
        #expect(placed[8].map { $0.x + $0.width } == 150, "the history takes the rest")
        let noGraph = Table.layout(
            Array(columns.prefix(3)), needs: [12, 7, 12], minimums: [10, 7, 12], width: 60)
        #expect(noGraph[0]?.width == 60 - 7 - 12 - 2)
    }

    @Test("a site cut to `…/File.swift:9` leaves no blank columns while a name beside it is cut: the name gets them")
    func aCutSiteGivesItsBlankColumnsToTheNameBesideIt() {
        let cells: [Table.Cell] = [
            .text("PonyScenarios/CartViewModel.swift:9", prefix: "▸ "), .text("CartViewModel", suffix: " DUP×27"),
            .text("sync"), .text("any"), .text("27"), .text("+27"), .text("+27"), .text("3s"), .text("5.7k"),
            .text("750µs"),
        ]
        let table = Table(
            columns: RecipientsPane.columns, rows: [Table.Row(cells: cells)], sort: nil, selected: nil,
            highlightsSelection: false, emptyMessage: "")
        var grid = Grid(width: 80, height: 3)
        table.draw(
            in: &grid, frame: Rect(x: 0, y: 0, width: 80, height: 3), inner: Rect(x: 1, y: 0, width: 78, height: 2),
            glyphs: .unicode)
        let row = grid.text.split(separator: "\n", omittingEmptySubsequences: false)[1]
        #expect(row.contains("▸ …/CartViewModel.swift:9 CartViewModel DUP×27"), "\(row)")
        #expect(!row.contains("  CartViewModel"), "no blank run before the name: \(row)")
    }

    @Test("too narrow: text is cut to its minimum first, then the lowest-priority columns go")
    func narrowing() {
        let columns = RecipientsPane.columns
        let needs = [40, 9, 5, 6, 11, 4, 4, 6, 10, 8]
        let minimums = [26, 8, 5, 6, 11, 4, 4, 6, 10, 8]
        let placed = Table.layout(columns, needs: needs, minimums: minimums, width: 70)
        #expect(placed[0]?.width ?? 0 >= 26, "the site keeps its file and line")
        #expect(placed[3] == nil, "SENDER goes first")
        #expect(placed[4] != nil && placed[5] != nil, "RECIPIENTS and +10S stay")
        let used = placed.compactMap { $0 }.map { $0.x + $0.width }.max() ?? 0
        #expect(used <= 70)
    }
}
