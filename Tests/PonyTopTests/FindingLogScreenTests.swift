import Foundation
import PonyTestSupport
import Testing

/// The findings pane keeps the run's log, as the report does: a finding that stopped holding stays listed, marked,
/// until the statistics are reset.
@Suite(
    "ponytop keeps the findings of the session", .blocksItsThread, .serialized,
    .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct FindingLogScreenTests {
    static let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios/stall-then-quiet.json").path

    @Test("a stall that clears stays in the findings pane, marked no longer holding, until r resets")
    func stallThatClearsStaysListed() throws {
        let tmux = try TmuxSession(
            [PonyTopBinary.path, "--scenario", Self.scenario], environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        defer { tmux.close() }
        #expect(tmux.waitFor("Mail types ("))
        #expect(tmux.waitFor("stalledQueue", timeout: 60), "the ui queue stalls")
        #expect(!tmux.capture().contains("[no longer holding]"))
        #expect(
            tmux.waitUntilScreen(timeout: 60) { $0.contains("stalledQueue") && $0.contains("[no longer holding]") },
            "the stall cleared, and the pane keeps it, marked")
        tmux.sendKeys("r")
        #expect(tmux.waitFor("Reset the statistics?"), "ponytop asks to confirm")
        tmux.sendKeys("y")
        #expect(
            tmux.waitUntilScreen { !$0.contains("stalledQueue") && $0.contains("no findings") },
            "a reset forgets it")
        tmux.sendKeys("q")
        tmux.expectExit(0)
    }
}
