import Testing

@testable import PonyTopUI

@Suite("Screen layouts: every pane has a place, panes tile the body, Tab follows the layout")
struct ScreenLayoutTests {
    static let screens: [AppState.Screen] = [.overview, .mailType(DashboardFixture.cart), .queues]

    @Test("every pane is placed on some screen: a pane left out of every layout could never be seen or focused")
    func everyPaneIsPlaced() {
        let placed = Set(Self.screens.flatMap(\.layout.panes))
        #expect(placed == Set(Pane.allCases))
    }

    @Test(
        "at 80x24, 99 and 100 columns and 200x60 each screen's panes cover the body once, with no overlap",
        arguments: [(80, 24), (99, 30), (100, 30), (200, 60)])
    func panesTileTheBody(width: Int, height: Int) {
        for screen in Self.screens {
            var state = AppState()
            state.screen = screen
            let context = DrawContext(dashboard: DashboardFixture.busy(), state: state, glyphs: .unicode)
            let body = Rect(x: 0, y: 2, width: width, height: height - 3)
            var covered = [[Int]](repeating: [Int](repeating: 0, count: width), count: height)
            let placements = screen.layout.place(in: body, context)
            for (_, area) in placements {
                for y in area.y..<(area.y + area.height) {
                    for x in area.x..<(area.x + area.width) { covered[y][x] += 1 }
                }
            }
            let cells = covered[body.y..<(body.y + body.height)].flatMap { $0 }
            #expect(cells.allSatisfy { $0 == 1 }, "\(screen) at \(width)x\(height): \(placements)")
            // Tab cycles through the placed panes that have rows, in the order they are drawn.
            let drawn = placements.map(\.pane).filter { $0.rows != nil }
            #expect(state.panes.filter(drawn.contains) == drawn, "\(screen) at \(width)x\(height)")
        }
    }
}
