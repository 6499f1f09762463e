import Foundation
import PonyTestSupport
import Testing

/// Keys as a newcomer presses them in a real terminal: in help, in a live run's replay keys, at 80x24.
@Suite(
    "ponytop's keys do what help says, in tmux", .blocksItsThread, .serialized,
    .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct OverlayKeysTests {
    @Test("in help, End shows the last line and keeps help open; Esc then shows the table where it was")
    func endInHelp() throws {
        let tmux = try TmuxSession([PonyTopBinary.path, "--scenario", "app"], width: 80, height: 24)
        #expect(tmux.waitFor("Mail types ("))
        tmux.sendKeys("?")
        #expect(tmux.waitFor("Help: keys, legend and findings"))
        tmux.sendKeys("End")
        #expect(tmux.waitFor("risingQueueWait"), "the last kind of finding is the last line")
        #expect(tmux.capture().contains("Help: keys, legend and findings"), "End keeps help open")
        tmux.sendKeys("PPage")
        #expect(tmux.waitUntilScreen { !$0.contains("risingQueueWait") }, "PgUp moves at once from the end")
        tmux.sendKeys("Escape")
        #expect(tmux.waitFor("Mail types ("))
        tmux.sendKeys("q")
        tmux.expectExit(0)
    }

    @Test("in a live run, . says that it moves through recordings only and does not pause the display")
    func replayKeysLive() throws {
        let tmux = try TmuxSession([PonyTopBinary.path, "--scenario", "app"], width: 120, height: 40)
        #expect(tmux.waitFor("Mail types ("))
        tmux.sendKeys(".")
        #expect(tmux.waitFor("replay keys move in a recording, not this scenario"))
        #expect(!tmux.capture().contains("[PAUSED]"))
        tmux.sendKeys("q")
        tmux.expectExit(0)
    }
}
