import PonyTopUI
import Testing

@Suite("The cell grid")
struct GridTests {
    @Test("writing clips to the grid and to the limit")
    func clipping() {
        var grid = Grid(width: 6, height: 2)
        #expect(grid.write("abcdefgh", x: 2, y: 0, style: .accent) == 4)
        grid.write("xyz", x: -1, y: 1, limit: 2)
        grid.write("never", x: 0, y: 5)
        #expect(grid.text == "  abcd\ny")
        #expect(grid.styleText == "..aaaa\n")
    }

    @Test("runs group same-styled cells of a row, left to right")
    func runs() {
        var grid = Grid(width: 8, height: 1)
        grid.write("ab", x: 0, y: 0, style: .header)
        grid.write("cd", x: 4, y: 0, style: .header)
        let runs = grid.runs(inRow: 0)
        #expect(runs.map(\.x) == [0, 2, 4, 6])
        #expect(runs.map(\.style) == [.header, .normal, .header, .normal])
        #expect(runs.map(\.cells.count) == [2, 2, 2, 2])
    }

    @Test("restyling keeps the characters")
    func restyle() {
        var grid = Grid(width: 4, height: 1)
        grid.write("row", x: 0, y: 0)
        grid.restyle(grid.bounds, as: .selection)
        #expect(grid.text == "row")
        #expect(grid.styleText == "SSSS")
    }
}
