import Foundation
import PonyTopUI
import Testing

@Suite("The key map: one table for handling, help and the docs")
struct KeyMapTests {
    /// Every action, and every effect a key asks of the source.
    static let everyAction: [Action] =
        [
            .moveUp, .moveDown, .pageUp, .pageDown, .moveToTop, .moveToBottom, .open, .details, .goToSite, .back,
            .nextPane, .previousPane, .sortLeft, .sortRight, .invertSort, .freezeOrder, .tree, .queues, .filter,
            .pauseDisplay, .lengthenInterval, .shortenInterval, .resetStatistics, .help, .quit,
        ]
        + [.toggleScenarioPause, .replayStep(-1), .replayStep(1), .replaySeek(-1), .replaySeek(1), .replayRewind].map(
            Action.source)

    /// Where an action stands in ``everyAction``: a switch with no `default`, so that an action added to `Action`
    /// does not compile here until it is listed.
    static func isListed(_ action: Action) -> Bool {
        switch action {
        case .moveUp, .moveDown, .pageUp, .pageDown, .moveToTop, .moveToBottom, .open, .details, .goToSite, .back,
            .nextPane, .previousPane, .sortLeft, .sortRight, .invertSort, .freezeOrder, .tree, .queues, .filter,
            .pauseDisplay, .lengthenInterval, .shortenInterval, .resetStatistics, .help, .quit, .source:
            everyAction.contains(action)
        }
    }

    @Test("every action has a key and no key is bound twice")
    func complete() {
        let bound = Set(KeyMap.bindings.map(\.action))
        #expect(bound == Set(Self.everyAction))
        #expect(bound.allSatisfy(Self.isListed))
        let keys = KeyMap.bindings.flatMap(\.keys)
        #expect(keys.count == Set(keys).count)
        for binding in KeyMap.bindings {
            for key in binding.keys { #expect(KeyMap.action(for: key) == binding.action) }
        }
    }

    @Test("the help screen lists every binding's keys and summary")
    func helpListsEveryKey() {
        var state = AppState()
        state.isHelpShown = true
        let grid = Renderer(glyphs: .unicode).render(DashboardFixture.busy(), state: state, width: 120, height: 40)
        for binding in KeyMap.bindings {
            #expect(grid.text.contains(binding.label), "help lacks \(binding.label)")
            #expect(grid.text.contains(binding.summary), "help lacks \(binding.summary)")
        }
    }

    @Test("the help screen scrolls to its last line at the minimum size")
    func helpScrolls() {
        var state = AppState()
        state.isHelpShown = true
        for _ in 0..<40 { _ = state.press(.down, on: DashboardFixture.busy()) }
        let grid = Renderer(glyphs: .unicode).render(DashboardFixture.busy(), state: state, width: 80, height: 24)
        #expect(grid.text.contains(KeyMap.bindings.last!.summary))
    }

    @Test("The ponytop article's key table is the key map")
    func documentedKeys() throws {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Sources/ponytop/ponytop.docc/Ponytop.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let table = KeyMap.bindings.map { "| `\($0.label)` | \($0.summary) |" }
        for row in table { #expect(text.contains(row), "Ponytop.md lacks the row \(row)") }
    }
}
