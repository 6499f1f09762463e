import Foundation
import PonyTestSupport
import Testing

/// What a leak hunter does in ponytop, in a real terminal: the leak as one grouped row with its growth, opened into
/// its registrations and its details; a finding opened with its evidence; the queues with their waits; the class
/// tree; sorting by a column and freezing the order.
@Suite(
    "ponytop puts the evidence on screen", .blocksItsThread, .serialized,
    .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct EvidenceScreenTests {
    /// The leaking site's rows in the recipients pane, each up to the pane's right border: `▸` (or `▾`), the site, its
    /// kind, count, growth and age. The leak finding names the same site, so a row is told by its tree marker.
    func siteRows(_ screen: String) -> [String] {
        screen.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "PonyScenarios/CellObserver.swift:10 ") else { return nil }
            let marker = line[..<start.lowerBound].dropLast(1)
            guard marker.hasSuffix("▸") || marker.hasSuffix("▾") else { return nil }
            let rest = line[start.lowerBound...]
            return String(rest[..<(rest.firstIndex(of: "│") ?? rest.endIndex)])
        }
    }

    @Test("leaky at 120x40: the leaking site is one row that grows; Enter expands it, d details it")
    func leakIsOneGroupedRow() throws {
        let tmux = try TmuxSession(
            [PonyTopBinary.path, "--scenario", "leaky"], environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        #expect(tmux.waitFor("Mail types ("))
        // Select CartUpdated by name: the table is sorted by posts/s, and under load another type can be on top.
        tmux.sendKeys("/")
        tmux.type("CartUpdated")
        tmux.sendKeys("Enter")
        // The blocks pile up at one site: the recipients pane shows one row for it, whose count grows. (The leak
        // finding names the same site, so the row is found by its tree marker, not by the site's text alone.)
        #expect(
            tmux.waitUntilScreen(timeout: 60) { screen in
                screen.contains("Recipients of CartUpdated:") && siteRows(screen).first?.contains("+") == true
            }, "the site's row, with its growth")
        let screen = tmux.capture()
        #expect(screen.contains(" at 1 site") && siteRows(screen).count == 1, "one row, not one per block")
        // The row's columns: site, kind, then (as the width allows) queue, count, +10s, +1m, oldest: the count is the
        // first whole number. The age changes by itself; the count must grow.
        func count(_ screen: String) -> Int? {
            siteRows(screen).first.flatMap { row in
                row.split(separator: " ").dropFirst().lazy.compactMap { Int($0) }.first
            }
        }
        let first = count(screen) ?? Int.max
        #expect(
            tmux.waitUntilScreen(timeout: 45) { (count($0) ?? 0) > first }, "the row's count grows as blocks pile up")
        // Enter drills in: the recipients of CartUpdated fill the screen, and the mail types table is gone.
        tmux.sendKeys("Enter")
        #expect(
            tmux.waitUntilScreen { $0.contains("Recipients of CartUpdated:") && !$0.contains("Mail types (") },
            "Enter drills into CartUpdated")
        tmux.sendKeys("Enter")
        #expect(tmux.waitFor("├─ #"), "Enter expands the site into its registrations")
        tmux.sendKeys("d")
        #expect(tmux.waitFor("Site PonyScenarios/CellObserver.swift:10"))
        #expect(tmux.capture().contains("registrations"))
        tmux.sendKeys("Escape", "Escape", "Escape")
        #expect(tmux.waitFor("Mail types ("))
        tmux.sendKeys("q")
        tmux.expectExit(0)
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
        tmux.expectExit(0)
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
        tmux.expectExit(0)
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
        tmux.expectExit(0)
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
        tmux.expectExit(0)
    }
}
