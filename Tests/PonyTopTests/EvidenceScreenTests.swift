import Foundation
import PonyTestSupport
import Testing

/// What a leak hunter does in ponytop, in a real terminal: the leak as one grouped row with its growth, opened into
/// its registrations and its details; a finding opened with its evidence; the queues with their waits; the class
/// tree; sorting by a column and freezing the order.
@Suite(
    "ponytop puts the evidence on screen", .serialized,
    .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct EvidenceScreenTests {
    /// The screen's line that contains `text`.
    func line(_ tmux: TmuxSession, containing text: String) -> String? {
        tmux.capture().split(separator: "\n").map(String.init).first { $0.contains(text) }
    }

    @Test("leaky at 120x40: the leaking site is one row that grows; Enter expands it, d details it")
    func leakIsOneGroupedRow() throws {
        let tmux = try TmuxSession(
            [PonyTopBinary.path, "--scenario", "leaky"], environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        #expect(tmux.waitFor("Mail types ("))
        // The blocks pile up at one site: the recipients pane shows one row for it, whose count grows.
        #expect(tmux.waitUntilScreen(timeout: 60) { $0.contains("BlockObserver.swift:10") && $0.contains("+1") })
        let first = line(tmux, containing: "BlockObserver.swift:10") ?? ""
        #expect(
            tmux.capture().components(separatedBy: "BlockObserver.swift:10 ").count <= 3, "one row, not one per block")
        #expect(
            tmux.waitUntilScreen(timeout: 45) { _ in
                (line(tmux, containing: "BlockObserver.swift:10") ?? "") != first
            }, "the row's count and growth change as blocks pile up")
        tmux.sendKeys("Enter")
        #expect(tmux.waitFor("Recipients of CartUpdated:"))
        #expect(!tmux.capture().contains("Mail types ("))
        tmux.sendKeys("Enter")
        #expect(tmux.waitFor("├─ #"), "Enter expands the site into its registrations")
        tmux.sendKeys("Up", "d")
        #expect(tmux.waitFor("Site PonyScenarios/BlockObserver.swift:10"))
        #expect(tmux.capture().contains("registrations"))
        tmux.sendKeys("Escape", "Escape", "Escape")
        #expect(tmux.waitFor("Mail types ("))
        tmux.sendKeys("q")
        #expect(tmux.waitForExit() == 0)
    }

    @Test("a finding is selected with Tab and the arrows, and Enter opens it with its evidence")
    func findingOpens() throws {
        let tmux = try TmuxSession(
            [PonyTopBinary.path, "--scenario", "leaky"], width: 200, height: 60,
            environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        #expect(tmux.waitUntilScreen(timeout: 60) { !$0.contains("Findings (0)") && $0.contains("LEAK") })
        tmux.sendKeys("BTab", "Enter")
        #expect(tmux.waitFor("Finding: "))
        let screen = tmux.capture()
        #expect(screen.contains("evidence"))
        #expect(screen.contains("explanation"))
        tmux.sendKeys("Escape")
        #expect(tmux.waitFor("Mail types ("))
        tmux.sendKeys("q")
        #expect(tmux.waitForExit() == 0)
    }

    @Test("burst at 80x24: w shows each queue's backlog and wait; the mail types table has the wait p99")
    func queues() throws {
        let tmux = try TmuxSession(
            [PonyTopBinary.path, "--scenario", "burst"], width: 80, height: 24,
            environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        #expect(tmux.waitFor("WAIT P99"))
        tmux.sendKeys("w")
        #expect(tmux.waitFor("Queues ("))
        #expect(tmux.waitUntilScreen(timeout: 45) { $0.contains("app.storage") && $0.contains("BACKLOG") })
        #expect(tmux.capture().contains("Wait on "))
        tmux.sendKeys("w")
        #expect(tmux.waitFor("Mail types ("))
        tmux.sendKeys("q")
        #expect(tmux.waitForExit() == 0)
    }

    @Test("hierarchy: subclass mail's recipients include the superclass's, marked; t shows the class tree")
    func hierarchy() throws {
        let tmux = try TmuxSession(
            [PonyTopBinary.path, "--scenario", "hierarchy"], width: 200, height: 60,
            environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        #expect(tmux.waitFor("ScreenViewed"))
        tmux.sendKeys("/")
        tmux.type("ScreenViewed")
        tmux.sendKeys("Enter", "Enter")
        #expect(tmux.waitFor("Recipients of ScreenViewed:"))
        #expect(tmux.waitUntilScreen { $0.contains("via AppEvent") }, "recipients registered for the superclass")
        tmux.sendKeys("Escape", "Escape", "t")
        #expect(tmux.waitFor("as a class tree"))
        #expect(tmux.waitUntilScreen { $0.contains("─ ScreenViewed") }, "a subclass under its superclass")
        tmux.sendKeys("q")
        #expect(tmux.waitForExit() == 0)
    }

    @Test("> sorts by the next column and marks it; f freezes the order and says so")
    func sortAndFreeze() throws {
        let tmux = try TmuxSession([PonyTopBinary.path], environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        #expect(tmux.waitFor("POSTS/S▼"))
        tmux.sendKeys(">")
        #expect(tmux.waitFor("DELIVERIES/S▼"))
        tmux.sendKeys("I")
        #expect(tmux.waitFor("DELIVERIES/S▲"))
        tmux.sendKeys("f")
        #expect(tmux.waitFor("[ORDER FROZEN]"))
        tmux.sendKeys("f")
        #expect(tmux.waitUntilScreen { !$0.contains("[ORDER FROZEN]") })
        tmux.sendKeys("q")
        #expect(tmux.waitForExit() == 0)
    }
}
